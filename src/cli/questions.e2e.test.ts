// Questions asked with flags, no code (issue 17): `gtp perf --shape` and `--image-folder`, run as
// a user runs them (the real CLI, a real device, real JPEG/PNG files made here with sharp).
// Asserts what is exact (bytes on the wire, counts, which metrics exist), never a time.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Metric } from '../results/schema.js';
import { readRunRecord } from '../results/storage.js';
import { cli } from '../../test/support/cli.js';

let dir: string;
const at = (name: string) => join(dir, name);
const value = (metrics: readonly Metric[], id: string) => metrics.find((m) => m.id === id)?.value;

/** A w x h image of seeded-looking but fixed pixels, as JPEG or PNG. */
async function image(path: string, w: number, h: number, format: 'jpeg' | 'png'): Promise<void> {
  const pixels = Buffer.alloc(w * h * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 37) % 256;
  const encoded = sharp(pixels, { raw: { width: w, height: h, channels: 3 } });
  await writeFile(path, await (format === 'jpeg' ? encoded.jpeg() : encoded.png()).toBuffer());
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gtp-questions-'));
  for (const [cls, n] of [
    ['cat', 3],
    ['dog', 2],
  ] as const) {
    await mkdir(at(`folder/${cls}`), { recursive: true });
    for (let i = 0; i < n; i++) await image(at(`folder/${cls}/${i}.${i % 2 ? 'png' : 'jpg'}`), 40 + 8 * i, 30, i % 2 ? 'png' : 'jpeg');
  }
  await writeFile(at('folder/dog/broken.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]));
  await mkdir(at('empty/cat'), { recursive: true });
  await mkdir(at('broken/cat'), { recursive: true });
  await writeFile(at('broken/cat/a.jpg'), 'not a jpeg');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('gtp perf --shape', () => {
  it('measures both strategies and the asked types at each batch size: bytes measured (4x), speedup, stages, limit', async () => {
    const out = at('shape.json');
    const { code, stderr } = await cli(['perf', '--shape', '2x24x20x3', '--batch', '2,3', '--dtype', 'uint8,float16', '--out', out]);
    expect(code, stderr).toBe(0);
    const { metrics, errors, datasets } = await readRunRecord(out);
    expect(errors).toEqual([]);
    expect(datasets.synthetic).toMatch(/\[2,24,20,3\], \[3,24,20,3\]/);
    expect(Object.keys(datasets)).toEqual(['synthetic']);
    for (const n of [2, 3]) {
      const g = `shape.${n}x24x20x3`;
      const elements = n * 24 * 20 * 3;
      expect(metrics.find((m) => m.id === `${g}.upload-bytes.cpu-normalize`)).toMatchObject({ value: 4 * elements, source: 'measured' });
      expect(value(metrics, `${g}.upload-bytes.device-normalize`)).toBe(elements);
      expect(value(metrics, `${g}.dtypes.upload-bytes.uint8`)).toBe(elements);
      expect(value(metrics, `${g}.dtypes.upload-bytes.float16`)).toBe(2 * elements);
      expect(metrics.find((m) => m.id === `${g}.speedup`)).toMatchObject({ kind: 'ratio', ci: expect.any(Array) });
      const stages = metrics.filter((m) => m.labels?.group === g && m.labels?.table === 'stages').map((m) => m.labels?.stage);
      expect(new Set(stages)).toEqual(
        new Set(['host', 'upload', 'compute', 'sync-floor', 'total', 'limit', ...(stages.includes('kernels') ? ['kernels'] : [])]),
      );
    }
  });

  it.each([
    [['--shape', '16x512x512'], /expected NxHxWxC/],
    [['--shape', '16x512x512x7'], /C \(channels\)|channels/],
    [['--shape', '2x8x8x3', '--dtype', 'int4'], /'int4' is not one of uint8,int8,float16,float32/],
    [['--shape', '2x8x8x3', '--size', '8x8'], /--size goes with --image-folder DIR only, not with --shape/],
    [['--dtype', 'uint8'], /--dtype goes with --shape NxHxWxC only/],
    [['--shape', '2x8x8x3', '--scenario', 'speedup'], /does not go with --scenario/],
  ])('%j: exit 2, one line', async (args, cause) => {
    const { code, stderr } = await cli(['perf', ...args]);
    expect(code).toBe(2);
    expect(stderr).toMatch(cause);
    expect(stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
  });
});

describe('gtp perf --image-folder', () => {
  it('reads a folder of JPEG/PNG files end to end and moves its batches both ways; a broken file is skipped and counted', async () => {
    const out = at('folder.json');
    const { code, stderr } = await cli(['perf', '--image-folder', at('folder'), '--size', '16x24', '--fit', 'letterbox', '--batch', '2', '--out', out]);
    expect(code, stderr).toBe(0);
    const { metrics, errors, datasets } = await readRunRecord(out);
    expect(errors).toEqual([]);
    expect(datasets['image-folder']).toMatch(/6 image files in 2 classes, sha256 [0-9a-f]{64}\), letterbox to 16x24, batch 2$/);
    expect(Object.keys(datasets)).toEqual(['image-folder']);
    expect(value(metrics, 'image-folder.images')).toBe(5);
    expect(metrics.find((m) => m.id === 'image-folder.skipped')).toMatchObject({ value: 1, detail: expect.stringMatching(/broken.jpg: undecodable-image/) });
    expect(value(metrics, 'image-folder.upload-bytes.cpu-normalize')).toBe(4 * 2 * 16 * 24 * 3);
    expect(value(metrics, 'image-folder.upload-bytes.device-normalize')).toBe(2 * 16 * 24 * 3);
    for (const id of ['image-folder.speedup.transfer', 'image-folder.speedup.batch']) expect(metrics.find((m) => m.id === id)?.kind).toBe('ratio');
    expect(metrics.some((m) => m.labels?.group === 'image-folder' && m.labels?.stage === 'limit')).toBe(true);
  });

  it.each([
    ['absent', /absent/],
    ['empty', /no image file/],
    ['broken', /none of its 1 image file\(s\) decodes/],
  ])('%s folder: exit 2 before any device starts, one line', async (name, cause) => {
    const { code, stdout, stderr } = await cli(['perf', '--image-folder', at(name)]);
    expect(code, stderr).toBe(2);
    expect(stderr).toMatch(cause);
    expect(stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
    expect(stdout).not.toContain('[gpu-transfer-perf] backend:');
  });
});
