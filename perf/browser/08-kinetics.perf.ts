// Article section 8 in a browser page: the committed Kinetics videos (or --kinetics-root's train
// split), played by the browser's own decoder through a <video> element, frame by frame (seeking),
// each frame brought to the device three ways: CPU pixels (the frame drawn into a 2D canvas)
// normalized on the host and sent as float32 (cpu-normalize); the same CPU pixels sent raw and
// normalized on the device (device-normalize); the browser's GPU import of the element,
// tf.browser.fromPixels(video) (webgpu: importExternalTexture; webgl: through a 2D canvas into a
// texture), normalized on the device (gpu-import). Asserted: the frame the page shows is ffmpeg's
// frame of that index (nearer it than its neighbours); the exact bytes and image pixels each way
// moves; the three agreeing within float bounds where their pixels agree. Measured and said: how
// far the browser's YUV-to-RGB conversion lies from ffmpeg's. The times go to the record; seeking
// (the decode) stays outside the clock.
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLOCK,
  CanvasPixels,
  closeVideo,
  DeviceChannelNormalization,
  exactMetric,
  frameOf,
  IMAGENET_NORMALIZATION,
  IMAGE_STRATEGIES,
  imageAgreementBound,
  imagePass,
  imageStrategies,
  importedPixels,
  itLeavesNoTensors,
  LeakCheck,
  levelDiff,
  maxAbsDiff,
  median,
  openVideo,
  qualityMetric,
  ratioFromPairs,
  recordMetrics,
  seekFrame,
  timeMetric,
  useBackend,
  useConfig,
  useKineticsVideos,
  expectedImageTransfers,
  imageTransferMetrics,
  type BackendContext,
  type ImageStrategy,
  type MetricInput,
  type PageVideoFile,
  type Tensor,
  VideoDecodeInPageError,
} from 'gpu-transfer-perf/browser';

/** Videos of the train split (the fixture has 4) and frames from the start of each (16 frames in all: the clip batch is timed frame by frame). */
const VIDEOS = 4;
const FRAMES_PER_VIDEO = 4;
/** Interleaved rounds (every selected frame once per strategy each), per scale. */
const ROUNDS = { quick: { rounds: 8, warmupRounds: 2 }, full: { rounds: 40, warmupRounds: 5 } } as const;

/**
 * tfjs-backend-webgpu 4.22 imports a video element with `importExternalTexture` by default
 * (WEBGPU_IMPORT_EXTERNAL_TEXTURE). In Chromium 156 on SwiftShader that loses every WebGPU device
 * of the page, tfjs's and any other ('A valid external Instance reference no longer exists',
 * 2026-12-06): on a software adapter the frame goes tfjs's other way, drawn into its own 2D canvas
 * and copied with copyExternalImageToTexture, and the strategy says so. A GPU keeps the default.
 */
const IMPORT_FLAG = 'WEBGPU_IMPORT_EXTERNAL_TEXTURE';
let importFlagBefore: boolean | null = null;

/** The videos this browser could not decode, each with its reason; all of them: the scenario is skipped with them. */
const undecodable: string[] = [];
const skipped = () =>
  files.length === 0
    ? undecodable.length === 0
      ? 'the data set has no video ffmpeg decodes'
      : `this browser decodes none of the ${undecodable.length} Kinetics videos (the first: ${undecodable[0]})`
    : null;

let context: BackendContext;
let files: PageVideoFile[];
let videos: HTMLVideoElement[];
let constants: DeviceChannelNormalization;
let strategies: ImageStrategy[];
const canvas = new CanvasPixels();
let leaks: LeakCheck | null = null;

/** Each selected frame: which video, which frame. */
let frames: Array<{ readonly v: number; readonly i: number }>;

beforeAll(async () => {
  context = await useBackend();
  const externalTexture = context.name === 'webgpu' && !context.adapter?.isSoftware;
  if (context.name === 'webgpu' && !externalTexture) {
    importFlagBefore = tf.env().getBool(IMPORT_FLAG);
    tf.env().set(IMPORT_FLAG, false);
  }
  // What this browser cannot decode is left out, with the reason its <video> element gave.
  files = [];
  videos = [];
  for (const f of await useKineticsVideos(VIDEOS)) {
    try {
      videos.push(await openVideo(f.bytes, f.file));
      files.push(f);
    } catch (error) {
      if (!(error instanceof VideoDecodeInPageError)) throw error;
      undecodable.push(error.message);
    }
  }
  if (files.length === 0) return;
  frames = files.flatMap((f, v) => Array.from({ length: Math.min(FRAMES_PER_VIDEO, f.frames) }, (_, i) => ({ v, i })));
  constants = new DeviceChannelNormalization(IMAGENET_NORMALIZATION);
  strategies = imageStrategies(context, constants, canvas).map((s) =>
    s.id === 'gpu-import'
      ? {
          ...s,
          says: `tf.browser.fromPixels(video element): the browser's import of the decoded frame (${
            externalTexture
              ? 'importExternalTexture'
              : context.name === 'webgpu'
                ? "drawn into tfjs's 2D canvas, then copyExternalImageToTexture: tfjs's default, importExternalTexture, loses the page's WebGPU devices on this software adapter"
                : "drawn into tfjs's 2D canvas, then texImage2D"
          }), normalized on the device`,
        }
      : s,
  );
  // One untimed pass each on the first frame: pipelines compiled, the kept constants uploaded.
  await seekFrame(videos[0]!, 0, files[0]!.frames);
  for (const s of strategies) await imagePass(context, s, [videos[0]!]);
  leaks = new LeakCheck();
});

afterAll(() => {
  if (importFlagBefore !== null) tf.env().set(IMPORT_FLAG, importFlagBefore);
  constants?.dispose();
  for (const v of videos ?? []) closeVideo(v);
});

describe('Kinetics videos three ways in the browser: CPU float32, raw bytes, GPU import (section 8)', () => {
  it("shows ffmpeg's frame of each index, and says how far its colours lie from ffmpeg's", async ({ task, skip }) => {
    if (skipped()) skip(skipped()!);
    const worst = { canvas: 0, 'gpu-import': 0 };
    const differing = { canvas: 0, 'gpu-import': 0 };
    let importVsCanvas = 0;
    let values = 0;
    for (const { v, i } of frames) {
      const f = files[v]!;
      await seekFrame(videos[v]!, i, f.frames);
      const pages = { canvas: canvas.rgb(videos[v]!), 'gpu-import': await importedPixels(videos[v]!) };
      const node = (k: number) => frameOf(f.nodePixels, k, f.height, f.width);
      expect(pages.canvas.length, `${f.file} frame ${i}`).toBe(node(i).length);
      values += pages.canvas.length;
      // The frame shown is ffmpeg's frame i, not a neighbour: judged where ffmpeg's frame i and the
      // neighbour differ (the colour conversions differ everywhere alike; a still video has no such place).
      for (const k of [i - 1, i + 1].filter((k) => k >= 0 && k < f.frames)) {
        const d = whereFramesDiffer(pages.canvas, node(i), node(k));
        if (d) expect(d.toOwn, `${f.file}: the page's frame ${i} against ffmpeg's ${i} and ${k}, over ${d.values} values`).toBeLessThan(d.toOther);
      }
      for (const source of ['canvas', 'gpu-import'] as const) {
        const d = levelDiff(pages[source], node(i));
        worst[source] = Math.max(worst[source], d.max);
        differing[source] += d.differing;
      }
      importVsCanvas = Math.max(importVsCanvas, levelDiff(pages.canvas, pages['gpu-import']).max);
    }
    const what = `${frames.length} frames (the first ${FRAMES_PER_VIDEO} of ${files.length} Kinetics videos, ${files.map((f) => `${f.codec} ${f.width}x${f.height}`).join(', ')}) decoded by the page's <video> element`;
    const metrics: MetricInput[] = [
      exactMetric(`browser-kinetics.videos-decoded`, files.length, 'videos', 'measured', {
        detail: `of the first ${VIDEOS} Kinetics videos ffmpeg decodes, those the page's <video> element decodes${undecodable.length > 0 ? `; not: ${undecodable.join('; ')}` : ''}`,
      }),
    ];
    metrics.push(
      ...(['canvas', 'gpu-import'] as const).map((source) =>
        qualityMetric(
          `browser-kinetics.pixel-diff-vs-node.${source}`,
          worst[source],
          {},
          {
            unit: 'levels',
            direction: 'info',
            detail: `largest |page - ffmpeg| over the RGB values (0..255) of ${what}, read ${source === 'canvas' ? 'from a 2D canvas (getImageData)' : 'through tf.browser.fromPixels'}, against ffmpeg's rgb24 decode of the same frames; ${differing[source]} of ${values} values differ (the two convert YUV to RGB each their own way)`,
            labels: { source },
          },
        ),
      ),
    );
    metrics.push(
      qualityMetric(
        'browser-kinetics.pixel-diff.gpu-import-vs-canvas',
        importVsCanvas,
        {},
        {
          unit: 'levels',
          direction: 'info',
          detail: `largest |fromPixels(video) - 2D canvas| over the RGB values of ${what}: the GPU import's colour conversion against the canvas's`,
          labels: {},
        },
      ),
    );
    await recordMetrics(task, ...metrics);
  });

  it('counts what each way moves, and the three agree within float bounds', async ({ task, skip }) => {
    if (skipped()) skip(skipped()!);
    const metrics: MetricInput[] = [];
    const pixels = frames.reduce((a, { v }) => a + files[v]!.height * files[v]!.width, 0);
    // No CPU pixels the page holds for gpu-import: the frame goes into a texture (webgl: through tfjs's own 2D canvas).
    const expected = expectedImageTransfers(
      context.name,
      frames.map(({ v }) => files[v]!),
    );
    const totals = Object.fromEntries(IMAGE_STRATEGIES.map((id) => [id, { bytes: 0, imagePixels: 0 }]));
    const worst: Record<string, number> = {};
    let compared = 0;
    for (const { v, i } of frames) {
      await seekFrame(videos[v]!, i, files[v]!.frames);
      const outputs: Record<string, Float32Array> = {};
      for (const s of strategies) {
        let kept: Tensor | null = null;
        const pass = await imagePass(context, s, [videos[v]!], (out) => {
          kept = out[0]!;
        });
        totals[s.id]!.bytes += pass.bytes.dataBytes;
        totals[s.id]!.imagePixels += pass.imagePixels;
        // Read back asynchronously: webgpu's dataSync in a page goes through a canvas copy.
        const t = kept! as Tensor;
        outputs[s.id] = (await t.data()) as Float32Array;
        t.dispose();
      }
      // The GPU import's colours may differ from the canvas's (the test above measures it): compared where they agree.
      const same = levelDiff(canvas.rgb(videos[v]!), await importedPixels(videos[v]!)).max === 0;
      if (same) compared++;
      for (const [a, b] of [
        ['cpu-normalize', 'device-normalize'],
        ['cpu-normalize', 'gpu-import'],
        ['device-normalize', 'gpu-import'],
      ] as const) {
        if (b === 'gpu-import' && !same) continue;
        const key = `${b}-vs-${a}`;
        worst[key] = Math.max(worst[key] ?? 0, maxAbsDiff(outputs[a]!, outputs[b]!));
      }
    }
    for (const s of strategies) {
      metrics.push(
        ...imageTransferMetrics('browser-kinetics', context, s, totals[s.id]!, `${frames.length} Kinetics frames (${pixels} pixels) decoded in the page`),
      );
      expect(totals[s.id], s.id).toEqual(expected[s.id]);
    }
    for (const [key, value] of Object.entries(worst)) {
      const [b, a] = key.split('-vs-') as [(typeof IMAGE_STRATEGIES)[number], (typeof IMAGE_STRATEGIES)[number]];
      const bound = imageAgreementBound(IMAGENET_NORMALIZATION, a, b);
      metrics.push(
        qualityMetric(
          `browser-kinetics.max-abs-diff.${key}`,
          value,
          { max: bound },
          {
            detail: `largest |${b} - ${a}| over every value of ${b === 'gpu-import' ? `the ${compared} of ${frames.length} frames whose imported pixels equal the canvas's` : `${frames.length} frames`} on ${context.name}; bound: (gamma_a + gamma_b) x max(|x| + |mean|)/std over the channels (measure/float-bounds.ts)`,
            labels: { strategy: b, against: a },
          },
        ),
      );
      expect(value, key).toBeLessThanOrEqual(bound);
    }
    await recordMetrics(task, ...metrics);
  });

  it('times the three ways frame by frame in interleaved rounds, synced with the device', async ({ task, skip }) => {
    if (skipped()) skip(skipped()!);
    const { rounds, warmupRounds } = ROUNDS[useConfig().scale];
    const samples = IMAGE_STRATEGIES.map(() => [] as number[]);
    for (let r = 0; r < warmupRounds + rounds; r++) {
      const spent = IMAGE_STRATEGIES.map(() => 0);
      for (const [n, { v, i }] of frames.entries()) {
        await seekFrame(videos[v]!, i, files[v]!.frames);
        // Each frame starts with another strategy, so no way always runs first after a seek.
        for (let k = 0; k < strategies.length; k++) {
          const s = (r + n + k) % strategies.length;
          spent[s]! += (await imagePass(context, strategies[s]!, [videos[v]!])).ms;
        }
      }
      if (r >= warmupRounds) for (const [s, ms] of spent.entries()) samples[s]!.push(ms);
    }
    const what = `${frames.length} Kinetics frames, each shown by seeking the page's <video> element (outside the clock), to normalized float32 tensors on ${context.name} in the browser; ${CLOCK}`;
    const metrics: MetricInput[] = IMAGE_STRATEGIES.map((id, s) =>
      timeMetric(`browser-kinetics.time.${id}`, median(samples[s]!), samples[s]!.length, {
        detail: `median of a round's summed times; ${strategies[s]!.says}; ${what}`,
        labels: { strategy: id },
      }),
    );
    for (let s = 1; s < IMAGE_STRATEGIES.length; s++) {
      metrics.push(
        ratioFromPairs(
          `browser-kinetics.speedup.${IMAGE_STRATEGIES[s]}`,
          { a: samples[0]!, b: samples[s]! },
          {
            detail: `median over interleaved rounds of time(cpu-normalize)/time(${IMAGE_STRATEGIES[s]}), 95% percentile-bootstrap CI; above 1: ${IMAGE_STRATEGIES[s]} is faster; ${what}`,
            labels: { a: 'cpu-normalize', b: IMAGE_STRATEGIES[s]! },
          },
        ),
      );
    }
    await recordMetrics(task, ...metrics);
  });

  itLeavesNoTensors(() => leaks!, skipped);
});

/** Levels by which two of ffmpeg's frames must differ at a value for it to tell them apart (well above the decoders' colour differences). */
const TELLS_APART = 32;

/**
 * Mean |page - own| and |page - other| over the values where ffmpeg's two frames differ by more
 * than TELLS_APART levels; null where they nowhere do (a still video).
 */
function whereFramesDiffer(
  page: ArrayLike<number>,
  own: ArrayLike<number>,
  other: ArrayLike<number>,
): { toOwn: number; toOther: number; values: number } | null {
  let [toOwn, toOther, values] = [0, 0, 0];
  for (let k = 0; k < page.length; k++) {
    if (Math.abs(own[k]! - other[k]!) <= TELLS_APART) continue;
    toOwn += Math.abs(page[k]! - own[k]!);
    toOther += Math.abs(page[k]! - other[k]!);
    values++;
  }
  return values === 0 ? null : { toOwn: toOwn / values, toOther: toOther / values, values };
}
