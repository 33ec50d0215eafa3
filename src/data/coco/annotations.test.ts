import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CocoFormatError, classIndexByCategory, parseCocoInstances, readCocoInstances } from './annotations.js';
import { tempFolder } from '../../../test/support/temp-folder.js';

/** A minimal valid instances object, with overrides. */
function instances(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    images: [{ id: 1, file_name: 'a.jpg', height: 4, width: 6 }],
    annotations: [{ id: 10, image_id: 1, category_id: 3, segmentation: [[0, 0, 2, 0, 2, 2]], iscrowd: 0 }],
    categories: [{ id: 3, name: 'car' }],
    ...overrides,
  };
}

describe('parseCocoInstances', () => {
  it('accepts COCO instances data and keeps extra fields', () => {
    const data = parseCocoInstances(instances({ info: { year: 2017 } }), 'x.json');
    expect(data.images[0]!.file_name).toBe('a.jpg');
    expect(data.annotations).toHaveLength(1);
  });

  it('names the file and the missing top-level fields of foreign JSON', () => {
    const runRecord = { schemaVersion: 2, metrics: [] };
    expect(() => parseCocoInstances(runRecord, 'run.json')).toThrow(CocoFormatError);
    expect(() => parseCocoInstances(runRecord, 'run.json')).toThrow(
      /^run\.json: no "images", "annotations", "categories" field \(found schemaVersion, metrics\)/,
    );
    expect(() => parseCocoInstances([1, 2], 'list.json')).toThrow(/list\.json: the top level is an array, not an object/);
    expect(() => parseCocoInstances(instances({ images: {} }), 'x.json')).toThrow(/x\.json: images: must be an array of images/);
  });

  it('names the field that is wrong', () => {
    const badImage = instances({ images: [{ id: 1, height: 4, width: 6 }] });
    expect(() => parseCocoInstances(badImage, 'x.json')).toThrow(/images\.0\.file_name: must be the image file name/);
    const badSize = instances({ images: [{ id: 1, file_name: 'a.jpg', height: 0, width: 6 }] });
    expect(() => parseCocoInstances(badSize, 'x.json')).toThrow(/images\.0\.height: must be > 0/);
    const badCrowd = instances({ annotations: [{ id: 1, image_id: 1, category_id: 3, segmentation: [], iscrowd: 2 }] });
    expect(() => parseCocoInstances(badCrowd, 'x.json')).toThrow(/annotations\.0\.iscrowd: must be 0 or 1/);
    const badCategory = instances({ categories: [{ id: 'car', name: 'car' }] });
    expect(() => parseCocoInstances(badCategory, 'x.json')).toThrow(/categories\.0\.id: must be an integer id/);
  });

  it('accepts an annotation without segmentation (bbox only): the reader skips it, the file stays usable', () => {
    const bboxOnly = instances({ annotations: [{ id: 10, image_id: 1, category_id: 3, bbox: [0, 0, 2, 2], iscrowd: 0 }] });
    expect(parseCocoInstances(bboxOnly, 'x.json').annotations[0]!.segmentation).toBeUndefined();
  });

  it('quotes what it found printably: a key with control characters cannot break the one-line error', () => {
    expect(() => parseCocoInstances({ 'evil\u001b[2J\nkey': 1 }, 'x.json')).toThrow(/found evil\\x1b\[2J\\nkey\)/);
  });

  it('refuses repeated ids, no categories, and more classes than a uint8 mask holds', () => {
    const twice = instances({
      images: [
        { id: 1, file_name: 'a.jpg', height: 4, width: 6 },
        { id: 1, file_name: 'b.jpg', height: 4, width: 6 },
      ],
    });
    expect(() => parseCocoInstances(twice, 'x.json')).toThrow(/image id 1 occurs more than once/);
    expect(() => parseCocoInstances(instances({ categories: [] }), 'x.json')).toThrow(/"categories" is empty/);
    const many = instances({ categories: Array.from({ length: 256 }, (_, i) => ({ id: i + 1, name: `c${i}` })) });
    expect(() => parseCocoInstances(many, 'x.json')).toThrow(/256 categories/);
  });
});

describe('classIndexByCategory', () => {
  it('numbers categories 1.. in id order, whatever the file order', () => {
    const map = classIndexByCategory([
      { id: 18, name: 'dog' },
      { id: 1, name: 'person' },
      { id: 3, name: 'car' },
    ]);
    expect([...map.entries()]).toEqual([
      [1, 1],
      [3, 2],
      [18, 3],
    ]);
  });
});

describe('readCocoInstances', () => {
  it('names a binary file (an image given as the JSON) in one printable line', async () => {
    const jpeg = fileURLToPath(new URL('../../../fixtures/coco/images/000000000001.jpg', import.meta.url));
    const error = (await readCocoInstances(jpeg).then(
      () => null,
      (e: unknown) => e,
    )) as Error;
    expect(error).toBeInstanceOf(CocoFormatError);
    expect(error.message).toMatch(/000000000001\.jpg: a binary file, not JSON text \(it starts with bytes ff d8 ff [0-9a-f ]+: a JPEG image\)/);
    // Nothing a terminal would act on, no U+FFFD from undecodable bytes, one line.
    const unsafe = [...error.message].filter((c) => c.charCodeAt(0) < 0x20 || (c.charCodeAt(0) >= 0x7f && c.charCodeAt(0) <= 0x9f) || c === '\ufffd');
    expect(unsafe).toEqual([]);
  });

  const temp = tempFolder('coco-ann-');

  it('names a file that is missing or not JSON', async () => {
    await expect(readCocoInstances(temp.at('none.json'))).rejects.toThrow(/none\.json: cannot read it \(ENOENT\)/);
    await writeFile(temp.at('cut.json'), '{"images": [');
    await expect(readCocoInstances(temp.at('cut.json'))).rejects.toThrow(/cut\.json: not valid JSON/);
    await writeFile(temp.at('control.json'), '{"images": \u0001}');
    await expect(readCocoInstances(temp.at('control.json'))).rejects.toThrow(/control\.json: not valid JSON.*\\x01/);
    await writeFile(temp.at('ok.json'), JSON.stringify(instances()));
    expect((await readCocoInstances(temp.at('ok.json'))).categories).toHaveLength(1);
  });
});
