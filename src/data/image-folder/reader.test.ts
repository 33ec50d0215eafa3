import { mkdir, writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { ImageFolderError } from './errors.js';
import { scanImageFolder } from './layout.js';
import { imageFolderBatches, loadImageFolder } from './reader.js';
import { tempFolder } from '../../../test/support/temp-folder.js';

/** Every test image is 4 x 6 (H x W), so 'resize' to 4x6 must give back the exact bytes. */
const H = 4;
const W = 6;

/** H x W x channels bytes from f(y, x, channel). */
function raster(channels: number, f: (y: number, x: number, c: number) => number): Buffer {
  return Buffer.from(Array.from({ length: H * W * channels }, (_, i) => f(Math.floor(i / channels / W), Math.floor(i / channels) % W, i % channels)));
}

/** A PNG of `channels` channels (1 = grey, 4 = RGBA) made by sharp from raw bytes. */
async function png(pixels: Buffer, channels: 1 | 3 | 4): Promise<Buffer> {
  const image = sharp(pixels, { raw: { width: W, height: H, channels } });
  return (channels === 1 ? image.toColourspace('b-w') : image).png().toBuffer();
}

const rgb = raster(3, (y, x, c) => (y * W + x) * 10 + c);
const grey = raster(1, (y, x) => y * 60 + x * 10);
// Colours under alpha 0 too: compositing onto any background would change them.
const rgba = raster(4, (y, x, c) => (c === 3 ? (x * 51) % 256 : 200 - (y * W + x) * 5 - c));
const rgbOf = (pixels: Buffer, channels: number, pick: (p: number[]) => number[]) =>
  Array.from({ length: H * W }, (_, i) => pick([...pixels.subarray(i * channels, (i + 1) * channels)])).flat();

describe('loadImageFolder', () => {
  const temp = tempFolder('image-folder-reader-');
  const put = async (path: string, bytes: Uint8Array | string) => {
    await mkdir(temp.at(path, '..'), { recursive: true });
    await writeFile(temp.at(path), bytes);
  };
  // PPM is read by pnm.ts (as Pillow), whatever sharp's build reads.
  const ppmDecodes = true;

  beforeAll(async () => {
    const noise = Buffer.from(Array.from({ length: 64 * 48 * 3 }, (_, i) => (i * 37) % 251));
    const jpeg = await sharp(noise, { raw: { width: 64, height: 48, channels: 3 } })
      .jpeg()
      .toBuffer();
    await put('set/cats/a.png', await png(rgb, 3));
    await put('set/cats/b_grey.png', await png(grey, 1));
    await put('set/cats/c_rgba.png', await png(rgba, 4));
    await put('set/cats/d_truncated.jpg', jpeg.subarray(0, jpeg.length >> 1));
    await put('set/cats/notes.txt', 'not an image');
    await put('set/cats/.hidden.png', await png(rgb, 3));
    await put(
      'set/dogs/x.jpg',
      await sharp(rgb, { raw: { width: W, height: H, channels: 3 } })
        .jpeg()
        .toBuffer(),
    );
    await put('set/dogs/y.ppm', Buffer.concat([Buffer.from(`P6\n${W} ${H}\n255\n`), rgb]));
    await put('set/dogs/sub/z.png', await png(rgb, 3));
    await put('set/README.md', 'files outside class folders belong to no class');
    await put('broken/only/bad.png', Buffer.from('\x89PNG\r\n\x1a\n not really'));
    await put('texts/only/readme.txt', 'no images here');
  });

  it('really made grey and RGBA files', async () => {
    expect((await sharp(temp.at('set/cats/b_grey.png')).metadata()).channels).toBe(1);
    expect((await sharp(temp.at('set/cats/c_rgba.png')).metadata()).channels).toBe(4);
  });

  it('batches the decodable images in torchvision order with their labels, and counts the rest', async () => {
    const folder = await loadImageFolder({ root: temp.at('set'), size: { height: H, width: W }, fit: 'resize', batchSize: 2 });
    expect(folder.classes).toEqual(['cats', 'dogs']);
    expect(folder.files[4]).toEqual({ path: Buffer.from(temp.at('set/dogs/x.jpg')), name: temp.at('set/dogs/x.jpg'), classIndex: 1 });
    // Files: 0 a, 1 b_grey, 2 c_rgba, 3 d_truncated (skipped), 4 x.jpg, 5 y.ppm, 6 sub/z.png.
    const decoded = [0, 1, 2, 4, ...(ppmDecodes ? [5] : []), 6];
    const pairs = (list: number[]) => Array.from({ length: Math.ceil(list.length / 2) }, (_, b) => list.slice(2 * b, 2 * b + 2));
    expect(folder.batches.map((b) => [...b.indices])).toEqual(pairs(decoded));
    expect(folder.batches.map((b) => [...b.targets])).toEqual(pairs(decoded.map((i) => (i < 4 ? 0 : 1))));
    expect(folder.batches.map((b) => b.shape)).toEqual(pairs(decoded).map((p) => [p.length, H, W, 3]));
    for (const b of folder.batches) {
      expect(b.targets).toBeInstanceOf(Int32Array);
      expect(b.pixels.byteOffset).toBe(0);
      expect(b.pixels.buffer.byteLength).toBe(b.shape.reduce((x, y) => x * y, 1));
    }

    const s = folder.summary;
    expect(s.filesListed).toBe(7);
    expect(s.images).toBe(ppmDecodes ? 6 : 5);
    expect(s.batches).toBe(3);
    expect(s.perClass).toEqual([
      { name: 'cats', images: 3 },
      { name: 'dogs', images: ppmDecodes ? 3 : 2 },
    ]);
    expect(s.ignored).toEqual({ hidden: 1, notImage: 1, outsideClasses: 1 });
    expect(s.skipped.map((k) => [k.item.slice(temp.path.length + 1), k.reason])).toEqual([
      ['set/cats/d_truncated.jpg', 'undecodable-image'],
      ...(ppmDecodes ? [] : [['set/dogs/y.ppm', 'unsupported-format']]),
    ]);
    expect(s.skipped[0]!.detail).toMatch(/premature end of JPEG/);
    if (!ppmDecodes) expect(s.skipped[1]!.detail).toMatch(/sharp \(libvips [\d.]+\) has no PPM decoder; convert it to PNG or JPEG/);
    expect(s.skippedByReason).toEqual(ppmDecodes ? { 'undecodable-image': 1 } : { 'undecodable-image': 1, 'unsupported-format': 1 });
  });

  it("decodes as PIL's convert('RGB'): PNG exact, grey replicated, alpha dropped without compositing", async () => {
    const [first, second] = (await loadImageFolder({ root: temp.at('set'), size: { height: H, width: W }, batchSize: 2 })).batches;
    const image = H * W * 3;
    expect([...first!.pixels.subarray(0, image)]).toEqual([...rgb]);
    expect([...first!.pixels.subarray(image)]).toEqual(rgbOf(grey, 1, ([v]) => [v!, v!, v!]));
    expect([...second!.pixels.subarray(0, image)]).toEqual(rgbOf(rgba, 4, ([r, g, b]) => [r!, g!, b!]));
  });

  it('letterboxes: a 4x6 image in a 6x6 canvas fills rows 1-4, rows 0 and 5 are 0', async () => {
    const { batches } = await loadImageFolder({ root: temp.at('set'), size: { height: 6, width: 6 }, fit: 'letterbox', batchSize: 1 });
    const pixels = [...batches[0]!.pixels];
    const row = W * 3;
    expect(batches[0]!.shape).toEqual([1, 6, 6, 3]);
    expect(pixels.slice(0, row)).toEqual(new Array(row).fill(0));
    expect(pixels.slice(row, 5 * row)).toEqual([...rgb]);
    expect(pixels.slice(5 * row)).toEqual(new Array(row).fill(0));
  });

  it('streams the same pass one timed batch at a time, returning the summary at the end', async () => {
    const pass = imageFolderBatches(await scanImageFolder(temp.at('set')), { size: { height: 2, width: 3 }, batchSize: 4 });
    const shapes: Array<readonly number[]> = [];
    for (;;) {
      const step = await pass.next();
      if (step.done) {
        expect(step.value.images).toBe(shapes.reduce((n, s) => n + s[0]!, 0));
        expect(step.value.size).toEqual({ height: 2, width: 3 });
        expect(step.value.fit).toBe('resize');
        break;
      }
      expect(step.value.loadMs).toBeGreaterThanOrEqual(0);
      expect(step.value.collateMs).toBeGreaterThanOrEqual(0);
      shapes.push(step.value.batch.shape);
    }
    expect(shapes).toEqual(
      ppmDecodes
        ? [
            [4, 2, 3, 3],
            [2, 2, 3, 3],
          ]
        : [
            [4, 2, 3, 3],
            [1, 2, 3, 3],
          ],
    );
  });

  it('names a folder where nothing decodes, or no image file is, in one line', async () => {
    const options = { size: { height: 8, width: 8 }, batchSize: 4 };
    const broken = await loadImageFolder({ root: temp.at('broken'), ...options }).catch((e: unknown) => e);
    expect(broken).toBeInstanceOf(ImageFolderError);
    expect((broken as Error).message).toMatch(
      /broken: none of its 1 image file\(s\) decodes \(skipped 1 undecodable-image; e\.g\. .*bad\.png: .*\); replace or convert them$/,
    );
    const texts = await loadImageFolder({ root: temp.at('texts'), ...options }).catch((e: unknown) => e);
    expect((texts as Error).message).toMatch(
      /texts: no image file in its 1 class folder\(s\) \(1 other file\(s\) ignored\); add images named \.jpg \.jpeg .* \.webp \(any case\)$/,
    );
    await expect(loadImageFolder({ root: temp.at('missing'), ...options })).rejects.toThrow(/missing: cannot read the image folder \(no such folder\)/);
    for (const error of [broken, texts]) expect((error as Error).message).not.toContain('\n');
  });

  it('refuses options that cannot make a batch before reading anything', async () => {
    const at = { root: temp.at('missing') };
    await expect(loadImageFolder({ ...at, size: { height: 0, width: 8 }, batchSize: 1 })).rejects.toThrow(
      /size\.height must be an integer in 1\.\.8192, got 0/,
    );
    await expect(loadImageFolder({ ...at, size: { height: 8, width: 8 }, batchSize: 0 })).rejects.toThrow(/batchSize must be an integer >= 1, got 0/);
  });
});
