import { createHash } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEveryCaseFolder, EVERY_CASE_REFERENCES, removeEveryCaseFolder } from '../../../test/support/image-folder-every-case.js';
import type { RgbImage } from '../coco/decode-image.js';
import { decodeImage } from './decode.js';
import { scanImageFolder } from './layout.js';
import { displayName } from './names.js';
import { resizePilBilinear } from './pil-resize.js';
import { loadImageFolder } from './reader.js';

/** torchvision's answers (scripts/image-folder-references.py, real PIL 9.4 and torchvision 0.14). */
interface References {
  readonly resized: ReadonlyArray<readonly [number, number]>;
  readonly large_for: readonly string[];
  readonly classes: readonly string[];
  readonly files: ReadonlyArray<{
    readonly path: string;
    readonly class: number;
    readonly pil?: string;
    readonly source?: string;
    readonly width?: number;
    readonly height?: number;
    readonly sha256?: string;
  }>;
}

/** The RGB pixels of a reference PNG (PIL wrote it; 8-bit RGB PNG decodes exactly). */
async function referencePixels(folder: string, source: string): Promise<Uint8Array> {
  const { data } = await sharp(join(EVERY_CASE_REFERENCES, folder, `${source}.png`))
    .raw()
    .toBuffer({ resolveWithObject: true });
  return new Uint8Array(data);
}

/** Largest and mean absolute difference of two equal-length byte arrays. */
function difference(a: Uint8Array, b: Uint8Array): { max: number; mean: number } {
  let max = 0;
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i]! - b[i]!);
    max = Math.max(max, d);
    sum += d;
  }
  return { max, mean: sum / a.length };
}

describe('the every-case image folder, against real torchvision', () => {
  let dir = '';
  let root = '';
  let refs: References;
  const relative = (path: Buffer) => path.subarray(Buffer.byteLength(root) + 1).toString('hex');

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'image-folder-every-case-'));
    root = await buildEveryCaseFolder(dir);
    refs = JSON.parse(await readFile(join(EVERY_CASE_REFERENCES, 'torchvision.json'), 'utf8')) as References;
  });
  afterAll(() => removeEveryCaseFolder(dir));

  it('lists the same classes, files, order and class indices as ImageFolder, names as bytes', async () => {
    const layout = await scanImageFolder(root);
    expect(layout.classes).toEqual(refs.classes.map((hex) => displayName(Buffer.from(hex, 'hex'))));
    // The Latin-1 class is shown escaped, never mangled, and sorts where Python puts U+DCE9.
    expect(layout.classes).toEqual(['Zebras', 'cafe\u0301', 'caf\u00e9', 'caf\\xe9', 'cats', 'linked', '\ue000private', '\u{1F600}emoji']);
    expect(layout.files.map((f) => [relative(f.path), f.classIndex])).toEqual(refs.files.map((f) => [f.path, f.class]));
    expect(layout.files.filter((f) => f.name.includes('private/')).map((f) => f.name.slice(f.name.lastIndexOf('/') + 1))).toEqual([
      'z.JPG',
      '\u00e9.png',
      '\\x80.png',
      '\\xed\\xa0\\x80.png',
      '\\xff\\xfe.JPG',
      '\ue000.JPG',
      '\u{1F600}.png',
    ]);
    expect(layout.ignored).toEqual({ hidden: 0, notImage: 1, outsideClasses: 2 });
  });

  it("decodes every file PIL reads equal to PIL's convert('RGB'), and resizes it as transforms.Resize", async () => {
    const layout = await scanImageFolder(root);
    const read = refs.files.filter((f) => f.sha256 !== undefined);
    expect(read).toHaveLength(53);
    for (const [i, ref] of refs.files.entries()) {
      if (ref.sha256 === undefined) continue;
      const file = layout.files[i]!;
      const decoded = (await decodeImage(await readFile(file.path))) as RgbImage;
      expect({ file: file.name, size: [decoded.width, decoded.height], sha256: createHash('sha256').update(decoded.pixels).digest('hex') }).toEqual({
        file: file.name,
        size: [ref.width, ref.height],
        sha256: ref.sha256,
      });
      for (const [h, w] of refs.resized) {
        if (h !== refs.resized[0]![0] && !refs.large_for.includes(ref.source!)) continue;
        const expected = await referencePixels(`resized-${h}x${w}`, ref.source!);
        // Pillow's own arithmetic: equal byte for byte (the bound was max 2, mean 0.5).
        expect({ file: file.name, h, w, ...difference(resizePilBilinear(decoded.pixels, decoded.height, decoded.width, h, w), expected) }).toEqual({
          file: file.name,
          h,
          w,
          max: 0,
          mean: 0,
        });
      }
    }
  });

  it('batches the same pixels end to end, and records every skipped entry with its reason, the FIFO never opened', async () => {
    const [h, w] = refs.resized[0]!;
    const folder = await loadImageFolder({ root, size: { height: h, width: w }, batchSize: 16 });
    const bytes = h * w * 3;
    for (const batch of folder.batches) {
      for (const [k, index] of [...batch.indices].entries()) {
        const ref = refs.files[index]!;
        expect(batch.targets[k]).toBe(ref.class);
        expect(difference(batch.pixels.subarray(k * bytes, (k + 1) * bytes), await referencePixels(`resized-${h}x${w}`, ref.source!))).toEqual({
          max: 0,
          mean: 0,
        });
      }
    }
    const s = folder.summary;
    expect(s.images).toBe(53);
    expect(s.filesListed).toBe(refs.files.length);
    const cats = `${root}/cats`;
    const deep = `${cats}/deep/${Array.from({ length: 17 }, (_, i) => `${String(i + 1).padStart(2, '0')}${'d'.repeat(238)}`).join('/')}/`;
    expect(s.skipped).toEqual([
      { item: deep, reason: 'unreadable-folder', detail: 'cannot be listed (its path is longer than the system allows (ENAMETOOLONG))' },
      { item: `${cats}/b.png`, reason: 'not-a-file', detail: 'a FIFO (named pipe), not a regular file; not opened' },
      { item: `${cats}/broken_empty.bmp`, reason: 'undecodable-image', detail: expect.stringMatching(/^not a readable image \(/) },
      { item: `${cats}/broken_text.png`, reason: 'undecodable-image', detail: expect.stringMatching(/^not a readable image \(/) },
      { item: `${cats}/broken_truncated.jpg`, reason: 'undecodable-image', detail: expect.stringMatching(/premature end of JPEG/i) },
      {
        item: `${cats}/gone.jpg`,
        reason: 'dangling-link',
        detail: expect.stringMatching(/^a dangling symbolic link \(to .*no-such-file\.jpg, which does not exist\); not opened$/),
      },
      {
        item: `${cats}/huge_16000x16000.png`,
        reason: 'too-many-pixels',
        detail: '16000x16000 = 256,000,000 pixels, over the budget of 89,478,485 (--max-pixels); decoding would take at least 768,000,000 B as RGB',
      },
    ]);
    expect(s.skippedByReason).toEqual({ 'unreadable-folder': 1, 'not-a-file': 1, 'undecodable-image': 3, 'dangling-link': 1, 'too-many-pixels': 1 });
    for (const { detail } of s.skipped) expect(detail).not.toContain('\n');
    // Each file torchvision lists but PIL cannot read is skipped here, and only those.
    const skippedFiles = s.skipped.filter((k) => k.reason !== 'unreadable-folder').map((k) => k.item);
    expect(skippedFiles).toEqual(
      refs.files.filter((f) => f.sha256 === undefined).map((f) => displayName(Buffer.concat([Buffer.from(`${root}/`), Buffer.from(f.path, 'hex')]))),
    );
  });

  it('skips an image above the pixel budget before decoding it, saying the memory it would take', async () => {
    const folder = await loadImageFolder({ root, size: { height: 8, width: 8 }, batchSize: 64, maxPixels: 40_000 });
    expect(folder.summary.skipped.filter((k) => k.reason === 'too-many-pixels').map((k) => [k.item.slice(root.length + 1), k.detail])).toEqual([
      [
        'cats/huge_16000x16000.png',
        '16000x16000 = 256,000,000 pixels, over the budget of 40,000 (--max-pixels); decoding would take at least 768,000,000 B as RGB',
      ],
      ['cats/sizes/scan_1bit.png', '300x200 = 60,000 pixels, over the budget of 40,000 (--max-pixels); decoding would take at least 180,000 B as RGB'],
    ]);
  });
});
