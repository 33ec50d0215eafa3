import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { cropMirrorNormalizeOnHost, type CropMirrorNormalizeSpec } from './transfer/kernels/crop-mirror-normalize.js';
import { IMAGENET_NORMALIZATION } from './transfer/normalization.js';
import { toFloat16Array } from './transfer/wire/float16.js';
import { centerPixels, decodeOnHost } from './transfer/wire/payload.js';
import { tempFolder } from '../test/support/temp-folder.js';

// gpu-transfer-perf/kernels (src/kernels.ts) from a plain Node process, as production code
// would load it: no vitest in that process, and nothing to find but tfjs. The sources are
// copied into a temporary project whose node_modules holds only the @tensorflow scope (a link),
// and loaded through tsx's loader; a module reaching vitest, sharp, zod or any other package
// fails to resolve there. The process runs the kernels on the cpu and wasm backends and prints
// a SHA-256 of each output's float32 bytes, compared here with the host references'.

const ROOT = resolve(import.meta.dirname, '..');
const run = promisify(execFile);

/** The cases the child runs: per-channel decode of each packed type, and a crop-mirror-normalize. */
const SHAPE = [2, 5, 7, 3];
const COUNT = SHAPE.reduce((a, b) => a * b, 1);
const pixels = Uint8Array.from({ length: COUNT }, (_, i) => (i * 97 + 13) % 256);
const CROP: CropMirrorNormalizeSpec = { inputShape: SHAPE, crop: { y: 1, x: 2, height: 3, width: 4 }, mirror: true, layout: 'CHW', ...IMAGENET_NORMALIZATION };

const CHILD = `
import { createHash } from 'node:crypto';
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
const kernels = await import(process.argv[3]);
const backend = process.argv[2];
if (!(await tf.setBackend(backend))) throw new Error('no ' + backend + ' backend');
const shape = ${JSON.stringify(SHAPE)};
const pixels = Uint8Array.from({ length: ${COUNT} }, (_, i) => (i * 97 + 13) % 256);
const n = kernels.IMAGENET_NORMALIZATION;
const hash = async (t) => {
  const values = await t.data();
  t.dispose();
  return createHash('sha256').update(new Uint8Array(values.buffer, values.byteOffset, values.byteLength)).digest('hex');
};
const float16 = kernels.toFloat16Array(Float32Array.from(pixels, (x) => x + 0.375));
const out = {
  backend: tf.getBackend(),
  vitest: typeof globalThis.__vitest_worker__ !== 'undefined',
  uint8: await hash(kernels.sendPacked({ dtype: 'uint8', values: pixels, shape }, n)),
  int8: await hash(kernels.sendPacked({ dtype: 'int8', values: kernels.centerPixels(pixels), shape }, { mean: n.mean.map((m) => m - 128), std: n.std })),
  float16: await hash(kernels.sendPacked({ dtype: 'float16', values: float16, shape }, n)),
  words: await hash(kernels.normalizePacked(kernels.packedWords(pixels), { shape, wire: 'uint8', ...n })),
  crop: await hash(kernels.cropMirrorNormalize(pixels, ${JSON.stringify(CROP)})),
};
console.log(JSON.stringify(out));
`;

const sha256 = (values: Float32Array) =>
  createHash('sha256')
    .update(new Uint8Array(values.buffer, values.byteOffset, values.byteLength))
    .digest('hex');

const temp = tempFolder('gtp-kernels-entry-');

beforeAll(async () => {
  await cp(join(ROOT, 'src'), temp.at('src'), { recursive: true, filter: (source) => !source.endsWith('.test.ts') });
  await mkdir(temp.at('node_modules'));
  await symlink(join(ROOT, 'node_modules/@tensorflow'), temp.at('node_modules/@tensorflow'), 'dir');
  // ESM, as the harness is (package.json "type": "module"): tsx then loads the .ts files as modules.
  await writeFile(temp.at('package.json'), JSON.stringify({ name: 'kernels-user', private: true, type: 'module' }));
  await writeFile(temp.at('check.mjs'), CHILD);
});

describe('gpu-transfer-perf/kernels in a plain Node process with only tfjs installed', () => {
  it.each(['cpu', 'wasm'])(
    'runs on %s and gives the host references bit for bit',
    async (backend) => {
      const tsx = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/esm/index.mjs')).href;
      const entry = pathToFileURL(temp.at('src/kernels.ts')).href;
      const { stdout } = await run(process.execPath, ['--import', tsx, temp.at('check.mjs'), backend, entry], {
        cwd: temp.path,
        env: { PATH: process.env.PATH ?? '' },
        timeout: 120_000,
      });
      const reported = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
      const int8Norm = { mean: IMAGENET_NORMALIZATION.mean.map((m) => m - 128), std: IMAGENET_NORMALIZATION.std };
      expect(reported).toEqual({
        backend,
        vitest: false,
        uint8: sha256(decodeOnHost('uint8', pixels, IMAGENET_NORMALIZATION)),
        int8: sha256(decodeOnHost('int8', centerPixels(pixels), int8Norm)),
        float16: sha256(decodeOnHost('float16', toFloat16Array(Float32Array.from(pixels, (x) => x + 0.375)), IMAGENET_NORMALIZATION)),
        words: sha256(decodeOnHost('uint8', pixels, IMAGENET_NORMALIZATION)),
        crop: sha256(cropMirrorNormalizeOnHost(pixels, CROP)),
      });
    },
    180_000,
  );

  it('cannot reach a package beyond tfjs there (the check itself can fail)', async () => {
    await writeFile(temp.at('src/heavy.ts'), "import 'vitest';\nexport const heavy = 1;\n");
    const tsx = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/esm/index.mjs')).href;
    const failed = await run(
      process.execPath,
      ['--import', tsx, '--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(temp.at('src/heavy.ts')).href)})`],
      {
        cwd: temp.path,
        env: { PATH: process.env.PATH ?? '' },
      },
    ).then(
      () => '',
      (error: { stderr: string }) => error.stderr,
    );
    expect(failed).toMatch(/Cannot find (package|module) 'vitest'/);
  }, 60_000);
});
