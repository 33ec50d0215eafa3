import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { CocoFormatError } from './annotations.js';
import { CocoDataError, loadCoco } from './reader.js';
import { tempFolder } from '../../../test/support/temp-folder.js';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/coco', import.meta.url));
const IMAGES = join(FIXTURES, 'images');
const ANNOTATIONS = join(FIXTURES, 'annotations', 'instances.json');

describe('loadCoco on the committed fixtures', () => {
  it('gives the summary in fixtures/coco/README.md (checked against pycocotools 2.0.11)', async () => {
    const { summary, count, classNames, sampleShape } = await loadCoco({ root: IMAGES, annotations: ANNOTATIONS });
    expect(count).toBe(12);
    expect(sampleShape).toBeNull();
    expect(classNames).toEqual(['background', 'person', 'car', 'dog', 'bottle']);
    expect(summary).toMatchObject({
      imagesListed: 12,
      annotationsListed: 18,
      categories: 4,
      images: 12,
      annotations: 18,
      annotationKinds: { polygon: 13, rle: 2, 'compressed-rle': 3 },
      crowdAnnotations: 2,
      annotationsOnSkippedImages: 0,
      skipped: [],
      skippedByReason: {},
      backgroundPixels: 21782,
    });
    expect(summary.classes.map((c) => [c.name, c.categoryId, c.annotations, c.maskArea, c.semanticPixels])).toEqual([
      ['background', 0, 0, 0, 21782],
      ['person', 1, 8, 11984, 10740],
      ['car', 3, 5, 3247, 2631],
      ['dog', 18, 5, 4878, 4809],
      ['bottle', 44, 0, 0, 0],
    ]);
    // All pixels of all images are counted once: 39,962 = sum of height*width.
    expect(summary.classes.reduce((sum, c) => sum + c.semanticPixels, 0)).toBe(39_962);
  });

  it('loads RGB images with their class masks, later objects on top', async () => {
    const ds = await loadCoco({ root: IMAGES, annotations: ANNOTATIONS, verify: 'header' });
    const first = await ds.load(0);
    expect(first.shape).toEqual([48, 64, 3]);
    expect(first.pixels.length).toBe(48 * 64 * 3);
    expect(first.target.length).toBe(48 * 64);
    // Image 1: person rectangle x 8..30, y 6..40 (class 1); car triangle (class 2).
    expect(first.target[20 * 64 + 15]).toBe(1);
    expect(first.target[36 * 64 + 47]).toBe(2);
    expect(first.target[2 * 64 + 2]).toBe(0);
    // Image 5: the dog polygon (class 3) was painted over the person crowd region (class 1).
    const crowd = await ds.load(4);
    expect(crowd.target[50 * 96 + 40]).toBe(3);
    expect(crowd.target[50 * 96 + 10]).toBe(1);
    // Image 7: the person polygon covers the car frame.
    const frame = await ds.load(6);
    expect(frame.target[10 * 72 + 10]).toBe(2);
    expect(frame.target[10 * 72 + 40]).toBe(1);
  });

  it('turns a grey JPEG into R=G=B and drops the alpha of an RGBA PNG', async () => {
    const ds = await loadCoco({ root: IMAGES, annotations: ANNOTATIONS, verify: 'header' });
    const grey = await ds.load(3);
    expect(ds.imageInfo(3).file_name).toBe('000000000004.jpg');
    for (let p = 0; p < grey.pixels.length; p += 3) {
      expect(grey.pixels[p + 1]).toBe(grey.pixels[p]);
      expect(grey.pixels[p + 2]).toBe(grey.pixels[p]);
    }
    const rgba = await ds.load(8);
    expect(rgba.shape).toEqual([32, 32, 3]);
  });
});

describe('loadCoco on fixtures/coco-odd (CMYK, palette, progressive, 13x199, truncated, bbox only)', () => {
  const ODD = join(FIXTURES, '..', 'coco-odd');
  const odd = { root: join(ODD, 'images'), annotations: join(ODD, 'annotations', 'instances.json') };

  it('gives the summary in fixtures/coco-odd/README.md: a bbox-only annotation is skipped and counted, not fatal', async () => {
    const { summary, count, classNames } = await loadCoco(odd);
    expect(count).toBe(4);
    expect(classNames).toEqual(['background', 'bicycle', 'kite']);
    expect(summary).toMatchObject({
      imagesListed: 5,
      annotationsListed: 6,
      categories: 2,
      images: 4,
      annotations: 4,
      annotationKinds: { polygon: 4, rle: 0, 'compressed-rle': 0 },
      annotationsOnSkippedImages: 1,
      skippedByReason: { 'no-segmentation': 1, 'corrupt-image': 1 },
    });
    const detail = summary.skipped.map((s) => `${s.item}: ${s.detail}`);
    expect(detail).toContainEqual('annotation 304: on image 203: no "segmentation" field (only a bbox [30, 20, 20, 16])');
    expect(detail).toContainEqual(expect.stringMatching(/truncated\.jpg: image 205: cannot decode it \(.*premature end/i));
    expect(summary.classes.map((c) => [c.name, c.categoryId, c.annotations, c.maskArea, c.semanticPixels])).toEqual([
      ['background', 0, 0, 0, 5729],
      ['bicycle', 2, 2, 2782, 2782],
      ['kite', 7, 2, 2460, 2460],
    ]);
    // The 48x32 rectangle on the CMYK image is 1,536 of bicycle's pixels; all pixels 10,971 =
    // 48x64 + 40x56 + 48x64 + 13x199 (the truncated image is not counted).
    expect(summary.classes.reduce((sum, c) => sum + c.semanticPixels, 0)).toBe(10_971);
  });

  it('with verify "header", counts the truncated image as usable (found only when decoded)', async () => {
    const { summary } = await loadCoco({ ...odd, verify: 'header' });
    expect(summary).toMatchObject({ images: 5, annotations: 5, skippedByReason: { 'no-segmentation': 1 } });
  });
});

describe('loadCoco skips what it cannot use and says why', () => {
  const temp = tempFolder('coco-bad-');
  const write = (name: string, data: unknown) => writeFile(temp.at(name), JSON.stringify(data));
  const image = (id: number, file: string, height: number, width: number) => ({ id, file_name: file, height, width });
  const box = [[2, 2, 10, 2, 10, 10, 2, 10]];
  const ann = (id: number, imageId: number, categoryId: number, segmentation: unknown = box) => ({
    id,
    image_id: imageId,
    category_id: categoryId,
    segmentation,
    iscrowd: 0,
  });

  beforeAll(async () => {
    await mkdir(temp.at('images'));
    await copyFile(join(IMAGES, '000000000001.jpg'), temp.at('images', 'good.jpg'));
    await copyFile(join(IMAGES, '000000000006.jpg'), temp.at('images', 'plain.jpg'));
    const jpeg = await readFile(join(IMAGES, '000000000005.jpg'));
    // The header survives; the entropy-coded data is cut short.
    await writeFile(temp.at('images', 'truncated.jpg'), jpeg.subarray(0, jpeg.length - 400));
    await writeFile(temp.at('images', 'text.jpg'), 'not a JPEG at all');
    await write('mixed.json', {
      images: [
        image(1, 'good.jpg', 48, 64),
        image(2, 'truncated.jpg', 72, 96),
        image(3, 'absent.jpg', 10, 10),
        image(4, 'plain.jpg', 40, 41),
        image(5, 'plain.jpg', 40, 40),
        image(6, 'text.jpg', 10, 10),
      ],
      annotations: [
        ann(1, 1, 7),
        ann(2, 1, 99),
        ann(3, 1, 7, [[0, 0, 4, 4]]),
        ann(4, 42, 7),
        ann(5, 2, 7),
        ann(6, 3, 7),
        ann(7, 1, 7, { size: [10, 10], counts: [100] }),
      ],
      categories: [{ id: 7, name: 'thing' }],
    });
  });

  it('lists every skipped item with its reason and counts only usable ones', async () => {
    const ds = await loadCoco({ root: temp.at('images'), annotations: temp.at('mixed.json') });
    expect(ds.count).toBe(2);
    expect(ds.summary.skippedByReason).toEqual({
      'unknown-category': 1,
      'malformed-segmentation': 2,
      'unknown-image': 1,
      'corrupt-image': 2,
      'missing-file': 1,
      'size-mismatch': 1,
    });
    expect(ds.summary).toMatchObject({ images: 2, annotations: 1, annotationsOnSkippedImages: 2, imagesListed: 6, annotationsListed: 7 });
    const detail = (reason: string) => ds.summary.skipped.filter((s) => s.reason === reason).map((s) => `${s.item}: ${s.detail}`);
    expect(detail('unknown-category')).toEqual(['annotation 2: category_id 99 is not in "categories"']);
    expect(detail('unknown-image')).toEqual(['annotation 4: image_id 42 is not in "images"']);
    expect(detail('malformed-segmentation')[0]).toMatch(/annotation 3: on image 1: polygon 0: .*got 4/);
    expect(detail('malformed-segmentation')[1]).toMatch(/annotation 7: on image 1: RLE size \[10, 10\] disagrees with the image's 48x64/);
    expect(detail('missing-file')[0]).toMatch(/absent\.jpg: image 3 "absent\.jpg" cannot be read \(ENOENT\)/);
    expect(detail('corrupt-image').join('\n')).toMatch(/truncated\.jpg: image 2: cannot decode it \(.*premature end/i);
    expect(detail('corrupt-image').join('\n')).toMatch(/text\.jpg: image 6: not a readable image/);
    expect(detail('size-mismatch')).toEqual([expect.stringMatching(/plain\.jpg: image 4: the file is 40x40 \(height x width\), the JSON says 40x41/)]);
  });

  it('with verify "header", finds a damaged file only when load decodes it', async () => {
    const ds = await loadCoco({ root: temp.at('images'), annotations: temp.at('mixed.json'), verify: 'header' });
    const truncated = [...Array(ds.count).keys()].find((i) => ds.imageInfo(i).file_name === 'truncated.jpg');
    expect(truncated).toBeDefined();
    await expect(ds.load(truncated!)).rejects.toThrow(/truncated\.jpg: image 2 was checked when the data set was loaded but now fails/);
  });

  it('refuses input that leaves nothing usable, saying what was skipped', async () => {
    await write('missing.json', { images: [image(1, 'absent.jpg', 10, 10)], annotations: [ann(1, 1, 7)], categories: [{ id: 7, name: 'thing' }] });
    await expect(loadCoco({ root: temp.at('images'), annotations: temp.at('missing.json') })).rejects.toThrow(
      /no usable image among 1 listed \(skipped 1 missing-file; e\.g\. .*absent\.jpg/,
    );
    await write('background.json', { images: [image(1, 'good.jpg', 48, 64)], annotations: [ann(1, 1, 99)], categories: [{ id: 7, name: 'thing' }] });
    await expect(loadCoco({ root: temp.at('images'), annotations: temp.at('background.json') })).rejects.toThrow(
      /none of the 1 annotations is usable .*1 unknown-category.*every mask would be background/,
    );
  });

  it('names a missing images folder, a file given as folder, and foreign JSON', async () => {
    await write('foreign.json', { schemaVersion: 2, metrics: [] });
    await expect(loadCoco({ root: temp.at('nowhere'), annotations: temp.at('mixed.json') })).rejects.toThrow(CocoDataError);
    await expect(loadCoco({ root: temp.at('nowhere'), annotations: temp.at('mixed.json') })).rejects.toThrow(
      /nowhere: cannot open the COCO images folder \(ENOENT\)/,
    );
    await expect(loadCoco({ root: temp.at('mixed.json'), annotations: temp.at('mixed.json') })).rejects.toThrow(/mixed\.json: not a directory/);
    await expect(loadCoco({ root: temp.at('images'), annotations: temp.at('foreign.json') })).rejects.toThrow(CocoFormatError);
    await expect(loadCoco({ root: temp.at('images'), annotations: temp.at('foreign.json') })).rejects.toThrow(/foreign\.json: no "images"/);
  });
});
