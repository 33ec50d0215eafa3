// Article section 7 in a browser page: the committed COCO images (or --coco-root's), decoded by the
// browser (createImageBitmap from each file's bytes), brought to the device three ways: CPU pixels
// normalized on the host and sent as float32 (cpu-normalize); the same CPU pixels sent raw and
// normalized on the device (device-normalize); the browser's own GPU import,
// tf.browser.fromPixels(ImageBitmap), normalized on the device (gpu-import). Each image at its own
// size, ImageNet's per-channel normalization, as Node's COCO scenario normalizes. Asserted: the
// exact bytes (and image pixels) each way moves, counted at the API in the page; the three agreeing
// within float bounds (measure/float-bounds.ts); the browser's decode against Node's (sharp) where
// the decoders agree, measured and said where they do not (a 2D canvas rounds translucent colours;
// JPEG decoders may differ in the last bit). The times go to the record.
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLOCK,
  CanvasPixels,
  countAndRead,
  deviceChannelNormalize,
  DeviceChannelNormalization,
  decodeInPage,
  IMAGENET_NORMALIZATION,
  IMAGE_STRATEGIES,
  imageAgreementBound,
  imagePass,
  imageStrategies,
  importedPixels,
  levelDiff,
  rgbaToRgb,
  translucentPixels,
  maxAbsDiff,
  median,
  qualityMetric,
  ratioFromPairs,
  recordMetrics,
  sampleInterleaved,
  stagedToDevice,
  timeMetric,
  useBackend,
  useCocoImages,
  useConfig,
  expectedImageTransfers,
  imageTransferMetrics,
  type BackendContext,
  type ImageStrategy,
  type MetricInput,
  type PageImageFile,
  type Tensor,
} from 'gpu-transfer-perf/browser';

/** The article's batch of 16 images (fewer where the data set has fewer: the fixture has 12). */
const IMAGES = 16;
/** Interleaved rounds (one pass over the images per strategy each), per scale: Node's COCO rounds (src/data/coco/source.ts). */
const ROUNDS = { quick: { rounds: 20, warmupRounds: 3 }, full: { rounds: 100, warmupRounds: 10 } } as const;

let context: BackendContext;
let files: PageImageFile[];
let bitmaps: ImageBitmap[];
let constants: DeviceChannelNormalization;
let strategies: ImageStrategy[];
const canvas = new CanvasPixels();

beforeAll(async () => {
  context = await useBackend();
  files = await useCocoImages(IMAGES);
  bitmaps = await Promise.all(files.map((f) => decodeInPage(f.bytes)));
  constants = new DeviceChannelNormalization(IMAGENET_NORMALIZATION);
  strategies = imageStrategies(context, constants, canvas);
  // One untimed pass each: pipelines compiled, the kept constants uploaded, before anything is counted.
  for (const s of strategies) await imagePass(context, s, bitmaps);
});

afterAll(() => {
  constants?.dispose();
  for (const b of bitmaps ?? []) b.close();
});

const isPng = (f: PageImageFile) => f.file.toLowerCase().endsWith('.png');

describe('COCO images three ways in the browser: CPU float32, raw bytes, GPU import (section 7)', () => {
  it('decodes in the page as Node does where the decoders agree, and says where they differ', async ({ task }) => {
    const metrics: MetricInput[] = [];
    const sources = { canvas: [] as string[], 'gpu-import': [] as string[] };
    const worst = { canvas: 0, 'gpu-import': 0 };
    const differing = { canvas: 0, 'gpu-import': 0 };
    let values = 0;
    for (const [i, f] of files.entries()) {
      const rgba = canvas.rgba(bitmaps[i]!);
      const translucent = translucentPixels(rgba) > 0;
      const pages = { canvas: rgbaToRgb(rgba), 'gpu-import': await importedPixels(bitmaps[i]!) };
      values += f.nodePixels.length;
      for (const source of ['canvas', 'gpu-import'] as const) {
        const d = levelDiff(pages[source], f.nodePixels);
        worst[source] = Math.max(worst[source], d.max);
        differing[source] += d.differing;
        if (d.max > 0) sources[source].push(`${f.file}${translucent ? ' (alpha < 255)' : ''}: up to ${d.max} in ${d.differing} values`);
        // Lossless and opaque: one decode is right, so the page's must equal Node's, value for value.
        if (isPng(f) && !translucent) expect(d.max, `${f.file} through ${source}`).toBe(0);
      }
      // An opaque bitmap read two ways (2D canvas, GPU import) is the same pixels.
      if (!translucent) expect(levelDiff(pages.canvas, pages['gpu-import']).max, f.file).toBe(0);
    }
    const how = {
      canvas: 'createImageBitmap, drawn into a 2D OffscreenCanvas, getImageData (the CPU pixels of cpu-normalize and device-normalize)',
      'gpu-import': 'createImageBitmap, tf.browser.fromPixels read back (the pixels of gpu-import)',
    };
    for (const source of ['canvas', 'gpu-import'] as const) {
      metrics.push(
        qualityMetric(
          `browser-coco.pixel-diff-vs-node.${source}`,
          worst[source],
          {},
          {
            unit: 'levels',
            direction: 'info',
            detail: `largest |page - Node| over the RGB values (0..255) of ${files.length} COCO images (JPEG and PNG): the page's ${how[source]} against sharp (the COCO reader's decode); ${differing[source]} of ${values} values differ${sources[source].length > 0 ? `: ${sources[source].join('; ')}` : ''}`,
            labels: { source },
          },
        ),
      );
    }
    await recordMetrics(task, ...metrics);
  });

  it('counts what each way moves, and the three agree within float bounds', async ({ task }) => {
    const pixels = files.reduce((a, f) => a + f.height * f.width, 0);
    const translucent = bitmaps.map((b) => translucentPixels(canvas.rgba(b)) > 0);
    const outputs: Partial<Record<string, Tensor[]>> = {};
    const metrics: MetricInput[] = [];
    // webgl: an [h,w,3] tensor goes up as RGBA float32 texels, 16 B a pixel, float32 or int32 alike
    // (webglImageTensorBytes), while h*w fits its texture size limit (the fixture's do).
    const webgl = context.name === 'webgl';
    const texels = webgl ? tf.env().getNumber('WEBGL_MAX_TEXTURE_SIZE') : 0;
    if (webgl)
      expect(
        files.every((f) => f.height * f.width <= texels),
        `every image's height x width within WEBGL_MAX_TEXTURE_SIZE ${texels}`,
      ).toBe(true);
    const expected = expectedImageTransfers(context.name, files);
    for (const s of strategies) {
      const pass = await imagePass(context, s, bitmaps, (out) => {
        outputs[s.id] = out;
      });
      const moved = { bytes: pass.bytes.dataBytes, imagePixels: pass.imagePixels };
      metrics.push(
        ...imageTransferMetrics('browser-coco', context, s, moved, `${files.length} COCO images (${pixels} pixels, each at its own size) decoded in the page`),
      );
      expect(moved, s.id).toEqual(expected[s.id]);
    }
    try {
      for (const [a, b] of [
        ['cpu-normalize', 'device-normalize'],
        ['cpu-normalize', 'gpu-import'],
        ['device-normalize', 'gpu-import'],
      ] as const) {
        const bound = imageAgreementBound(IMAGENET_NORMALIZATION, a, b);
        // The canvas rounds translucent colours (the test above measures it): those images compare only CPU pixels with CPU pixels.
        const compared = files.flatMap((_, i) => (b === 'gpu-import' && translucent[i] ? [] : [i]));
        let worst = 0;
        for (const i of compared) {
          const [x, y] = [outputs[a]![i]!, outputs[b]![i]!];
          expect(y.shape, `${files[i]!.file}: ${b} against ${a}`).toEqual(x.shape);
          worst = Math.max(worst, maxAbsDiff((await x.data()) as Float32Array, (await y.data()) as Float32Array));
        }
        metrics.push(
          qualityMetric(
            `browser-coco.max-abs-diff.${b}-vs-${a}`,
            worst,
            { max: bound },
            {
              detail: `largest |${b} - ${a}| over every value of ${compared.length} of the ${files.length} images on ${context.name}${compared.length < files.length ? ' (those with alpha < 255 left out: the 2D canvas rounds their colours, measured in pixel-diff-vs-node.canvas)' : ''}; bound: (gamma_a + gamma_b) x max(|x| + |mean|)/std over the channels (measure/float-bounds.ts)`,
              labels: { strategy: b, against: a },
            },
          ),
        );
        expect(worst, `${b} against ${a}`).toBeLessThanOrEqual(bound);
      }
    } finally {
      for (const out of Object.values(outputs)) for (const t of out ?? []) t.dispose();
    }
    await recordMetrics(task, ...metrics);
  });

  it("moves what device-normalize moves through the public per-channel kernel a user's file calls (deviceChannelNormalize)", async () => {
    // gpu-transfer-perf's deviceChannelNormalize: packed bytes and the fused kernel on webgpu, int32
    // values and tfjs ops on webgl (no uint8 tensor there); against the device-normalize way's own path.
    const staged = deviceChannelNormalize(context, IMAGENET_NORMALIZATION);
    const way = strategies.find((s) => s.id === 'device-normalize')!;
    const [file, bitmap] = [files[0]!, bitmaps[0]!];
    // The fused kernel takes [N, H, W, C]: one image is a batch of one.
    const [rgb, shape] = [canvas.rgb(bitmap), [1, file.height, file.width, 3]];
    stagedToDevice(staged, rgb, shape).dispose(); // its program compiled before anything is counted
    const kernel = await countAndRead(context, () => stagedToDevice(staged, rgb, shape));
    const own = await countAndRead(context, () => way.toDevice(bitmap));
    expect(kernel.shape).toEqual(shape);
    // The upload moves what the way moves; the compute adds only its own constants (on webgl the
    // per-channel mean and std go up with each call, where the way keeps them on the device for
    // the run): counted apart, on a tensor already resident.
    const resident = staged.upload(staged.prepare(rgb), shape);
    await resident.data();
    const computeOnly = await countAndRead(context, () => staged.compute(resident, shape));
    resident.dispose();
    if (context.name !== 'webgl') expect(computeOnly.bytes.dataBytes).toBe(0);
    expect(kernel.bytes.dataBytes, `${file.file} on ${context.name}`).toBe(own.bytes.dataBytes + computeOnly.bytes.dataBytes);
    const bound = imageAgreementBound(IMAGENET_NORMALIZATION, 'device-normalize', 'device-normalize');
    expect(maxAbsDiff(kernel.values, own.values)).toBeLessThanOrEqual(bound);
  });

  it('times the three ways in interleaved rounds, synced with the device', async ({ task }) => {
    const rounds = ROUNDS[useConfig().scale];
    const samples = await sampleInterleaved(
      strategies.map((s) => async () => (await imagePass(context, s, bitmaps)).ms),
      rounds,
    );
    const what = `one pass over ${files.length} COCO images decoded in the page (createImageBitmap, outside the clock) to normalized float32 tensors on ${context.name} in the browser; ${CLOCK}`;
    const [a, ...others] = IMAGE_STRATEGIES.map((id, v) => ({ id, times: samples[v]!, says: strategies[v]!.says }));
    const metrics: MetricInput[] = [a!, ...others].map((s) =>
      timeMetric(`browser-coco.time.${s.id}`, median(s.times), s.times.length, { detail: `median; ${s.says}; ${what}`, labels: { strategy: s.id } }),
    );
    for (const b of others) {
      metrics.push(
        ratioFromPairs(
          `browser-coco.speedup.${b.id}`,
          { a: a!.times, b: b.times },
          {
            detail: `median over interleaved rounds of time(cpu-normalize)/time(${b.id}), 95% percentile-bootstrap CI; above 1: ${b.id} is faster; ${what}`,
            labels: { a: 'cpu-normalize', b: b.id },
          },
        ),
      );
    }
    await recordMetrics(task, ...metrics);
  });
});
