/**
 * Side-by-side timing of the crop-mirror-normalize kernel's programs in ONE process on webgpu
 * (issue 13): the first program (one invocation per element, six integer divisions each) vs
 * the vec4 programs (channel-affine fast path; rows program for crop, mirror, CHW), as the
 * device stage of the image and video scenarios (the kernel on words already resident, as
 * staged-transfer.ts deviceChannelNormalize runs it) and end to end (cropMirrorNormalize: upload
 * + kernel), with the host's per-channel table normalize in the same rounds for scale. At the
 * largest size it also times, outside tfjs, the fast program's own shader against two
 * reference shaders on the same device: a plain copy of the output's bytes and an
 * "expand-copy" that reads and writes exactly the kernel's bytes (1 in, 4 out per element).
 *
 * Interleaved rounds (every variant once per round, rotating the order, all on the same
 * batch), each synced with the device; medians and per-round ratios with 95% bootstrap CIs.
 * Every variant is first checked against the CPU reference, and for leaked tensors.
 *
 *   npx tsx scripts/compare-crop-mirror-normalize.ts [--rounds N] [--general-rounds N] [--sizes small,large,clip,quick-clip]
 */
import * as tf from '@tensorflow/tfjs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startBackend } from '../src/backend/start.js';
import type { BackendContext } from '../src/backend/types.js';
import { seededRng } from '../src/base/random.js';
import { estimateSpeedup, sampleInterleaved } from '../src/measure/paired.js';
import { maxAbsDiff, median } from '../src/measure/statistics.js';
import { timeSynced } from '../src/measure/timer.js';
import {
  cropMirrorNormalizeOnHost,
  IMAGENET_NORMALIZATION,
  resolveCropMirrorNormalize,
  type CropMirrorNormalizeSpec,
} from '../src/transfer/kernels/crop-mirror-normalize.js';
import { ChannelAffineVec4Program } from '../src/transfer/webgpu/crop-mirror-normalize-flat-program.js';
import {
  CROP_MIRROR_NORMALIZE,
  cropMirrorNormalize,
  type CropMirrorNormalizeAttrs,
  type CropMirrorNormalizeOptions,
} from '../src/transfer/kernels/crop-mirror-normalize-kernel.js';
import { COPY_SHADER, EXPAND_COPY_SHADER, RawDispatch, referenceWorkgroups } from '../src/transfer/webgpu/reference-shaders.js';
import { packedWords } from '../src/transfer/strategies/send-payload.js';
import { normalizeChannelsOnHost } from '../src/transfer/strategies/staged-transfer.js';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '20' },
    'general-rounds': { type: 'string', default: '8' },
    sizes: { type: 'string', default: 'small,large,clip' },
  },
});

const SIZES: Record<string, number[]> = {
  small: [16, 128, 128, 3], // quick COCO batch
  large: [16, 480, 480, 3], // full COCO batch
  clip: [8, 32, 112, 112, 3], // full Kinetics batch
  'quick-clip': [8, 32, 56, 56, 3], // quick Kinetics batch
};

/** A way to get the normalized batch: timed as one call plus a device sync. */
interface Variant {
  readonly name: string;
  readonly spec: CropMirrorNormalizeSpec;
  /** Kernel on resident words ('stage'), upload + kernel ('whole'), or the host's table normalize. */
  readonly kind: 'stage' | 'whole' | 'host';
  readonly options?: CropMirrorNormalizeOptions;
}

const fmt = (x: number, digits = 3): string => x.toFixed(digits);

function randomBytes(size: number, seed: number): Uint8Array {
  const rng = seededRng(seed);
  return Uint8Array.from({ length: size }, () => rng.int(256));
}

/** Uploads the words as staged-transfer.ts uploadPackedBytes does (writeBuffer into a harness buffer). */
function residentWords(pixels: Uint8Array): tf.Tensor {
  return packedWords(pixels);
}

function runStage(words: tf.Tensor, spec: CropMirrorNormalizeSpec, options: CropMirrorNormalizeOptions = {}): tf.Tensor {
  const attrs: CropMirrorNormalizeAttrs = { ...spec, ...options };
  return tf.engine().runKernel(CROP_MIRROR_NORMALIZE, { pixels: words }, attrs as unknown as tf.NamedAttrMap) as tf.Tensor;
}

async function checkVariants(context: BackendContext, variants: readonly Variant[], pixels: Uint8Array): Promise<void> {
  const before = tf.memory().numTensors;
  for (const v of variants) {
    if (v.kind === 'host') continue;
    const words = residentWords(pixels);
    const out = v.kind === 'stage' ? runStage(words, v.spec, v.options) : cropMirrorNormalize(pixels, v.spec, v.options);
    words.dispose();
    await context.sync(out);
    const error = maxAbsDiff((await out.data()) as Float32Array, cropMirrorNormalizeOnHost(pixels, v.spec));
    out.dispose();
    if (error > 1e-6) throw new Error(`${v.name}: max |device - host| = ${error}`);
  }
  if (tf.memory().numTensors !== before) throw new Error(`variants leaked ${tf.memory().numTensors - before} tensors`);
}

async function compare(
  context: BackendContext,
  title: string,
  variants: readonly Variant[],
  comparisons: ReadonlyArray<[string, string]>,
  rounds: number,
): Promise<void> {
  const inputSize = resolveCropMirrorNormalize(variants[0]!.spec).inputSize;
  const batches = [randomBytes(inputSize, 7), randomBytes(inputSize, 11)];
  await checkVariants(context, variants, batches[0]!);
  let reused = new Float32Array(0);
  let words: tf.Tensor | null = null;
  let wordsRound = -1;
  // The stage variants of a round share one upload, made before the round's first stage timing.
  const wordsFor = (round: number): tf.Tensor => {
    if (wordsRound !== round) {
      words?.dispose();
      words = residentWords(batches[round % 2]!);
      wordsRound = round;
    }
    return words!;
  };
  const samples = await sampleInterleaved(
    variants.map((v) => async (round: number) => {
      const pixels = batches[round % 2]!;
      if (v.kind === 'host') {
        if (reused.length !== pixels.length) reused = new Float32Array(pixels.length);
        const start = performance.now();
        normalizeChannelsOnHost(pixels, v.spec, reused);
        return performance.now() - start;
      }
      if (v.kind === 'whole') return timeSynced(context, () => cropMirrorNormalize(pixels, v.spec, v.options));
      const resident = wordsFor(round);
      await context.sync(resident);
      return timeSynced(context, () => runStage(resident, v.spec, v.options));
    }),
    { warmupRounds: 2, rounds },
  );
  (words as tf.Tensor | null)?.dispose();
  const byName = new Map(variants.map((v, i) => [v.name, samples[i]!]));
  console.log(`\n${title}: ${rounds} interleaved rounds (+2 warm-up), synced`);
  for (const v of variants) console.log(`  ${v.name.padEnd(52)} median ${fmt(median(byName.get(v.name)!)).padStart(9)} ms`);
  console.log('  ratio = median of per-round time(baseline) / time(variant) [95% bootstrap CI]');
  for (const [variant, baseline] of comparisons) {
    const s = estimateSpeedup({ a: byName.get(baseline)!, b: byName.get(variant)! });
    console.log(`  ${variant.padEnd(52)} vs ${baseline.padEnd(44)} ${fmt(s.ratio.estimate, 2)}x [${fmt(s.ratio.lo, 2)}, ${fmt(s.ratio.hi, 2)}]`);
  }
}

const OLD_STAGE = 'stage: first program';
const NEW_STAGE = 'stage: vec4 program (direct dispatch)';

/** The image/video scenarios' case: whole frame, no mirror, channels last. */
async function scenarioCase(context: BackendContext, shape: number[], rounds: number): Promise<void> {
  const spec: CropMirrorNormalizeSpec = { inputShape: shape, layout: 'HWC', ...IMAGENET_NORMALIZATION };
  const variants: Variant[] = [
    { name: 'host: per-channel table into a reused array', spec, kind: 'host' },
    { name: OLD_STAGE, spec, kind: 'stage', options: { program: 'scalar' } },
    { name: 'stage: vec4 program (tfjs dispatch)', spec, kind: 'stage', options: { dispatch: 'tfjs' } },
    { name: NEW_STAGE, spec, kind: 'stage' },
    { name: 'whole: tfjs upload + first program', spec, kind: 'whole', options: { upload: 'tfjs', program: 'scalar' } },
    { name: 'whole: writeBuffer + vec4 program (now)', spec, kind: 'whole' },
  ];
  await compare(
    context,
    `[${shape.join(',')}] HWC, whole frame, ImageNet mean/std`,
    variants,
    [
      ['stage: vec4 program (tfjs dispatch)', OLD_STAGE],
      [NEW_STAGE, OLD_STAGE],
      ['whole: writeBuffer + vec4 program (now)', 'whole: tfjs upload + first program'],
      [OLD_STAGE, 'host: per-channel table into a reused array'],
      [NEW_STAGE, 'host: per-channel table into a reused array'],
    ],
    rounds,
  );
}

/** Crop, mirror and HWC -> CHW: the rows program against the first program. */
async function generalCases(context: BackendContext, shape: number[], rounds: number): Promise<void> {
  const [height, width] = shape.slice(-3) as [number, number];
  // An odd-offset centre crop of 7/8 of each side, as a random crop would give.
  const crop = { y: Math.floor(height / 16) | 1, x: Math.floor(width / 16) | 1, height: Math.floor((height * 7) / 8), width: Math.floor((width * 7) / 8) };
  const cases: Array<[string, CropMirrorNormalizeSpec]> = [
    ['CHW, whole frame', { inputShape: shape, layout: 'CHW', ...IMAGENET_NORMALIZATION }],
    ['HWC, crop, mirror', { inputShape: shape, crop, mirror: true, layout: 'HWC', ...IMAGENET_NORMALIZATION }],
    ['CHW, crop, mirror', { inputShape: shape, crop, mirror: true, layout: 'CHW', ...IMAGENET_NORMALIZATION }],
  ];
  for (const [label, spec] of cases) {
    const variants: Variant[] = [
      { name: `${label}: first program`, spec, kind: 'stage', options: { program: 'scalar' } },
      { name: `${label}: rows program`, spec, kind: 'stage' },
    ];
    await compare(
      context,
      `[${shape.join(',')}] ${label} (crop ${crop.height}x${crop.width} at (${crop.y}, ${crop.x}) where cropped)`,
      variants,
      [[variants[1]!.name, variants[0]!.name]],
      rounds,
    );
  }
}

/**
 * The fast program's shader (its direct-dispatch module) against a plain copy of its output's
 * bytes and an expand-copy of its own bytes, each dispatched alone outside tfjs.
 */
async function copyBandwidth(shape: number[], rounds: number): Promise<void> {
  const device = (tf.backend() as unknown as { device: GPUDevice }).device;
  const spec: CropMirrorNormalizeSpec = { inputShape: shape, layout: 'HWC', ...IMAGENET_NORMALIZATION };
  const g = resolveCropMirrorNormalize(spec);
  const n = g.inputSize;
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
  const input = device.createBuffer({ size: Math.ceil(n / 16) * 16, usage });
  const bytes = randomBytes(n - (n % 4), 3);
  device.queue.writeBuffer(input, 0, bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);
  const output = device.createBuffer({ size: 4 * n, usage });
  const copySource = device.createBuffer({ size: 4 * n, usage });
  const fast = new ChannelAffineVec4Program(g).direct();
  const kernels = {
    kernel: new RawDispatch(device, fast.code(), [output, input, input], fast.workgroups),
    copy: new RawDispatch(device, COPY_SHADER, [output, copySource], referenceWorkgroups(4 * n)),
    expand: new RawDispatch(device, EXPAND_COPY_SHADER, [output, input], referenceWorkgroups(4 * n)),
  };
  const [kernel, copy, expand] = await sampleInterleaved(
    Object.values(kernels).map((k) => () => k.time()),
    { warmupRounds: 3, rounds },
  );
  for (const b of [input, output, copySource]) b.destroy();
  const mb = (bytes: number, ms: number): string => `${fmt(bytes / ms / 1e6, 2)} GB/s`;
  console.log(`\n[${shape.join(',')}] device bandwidth, raw dispatches outside tfjs, ${rounds} interleaved rounds (+3 warm-up)`);
  console.log(`  fast program shader: ${fmt(median(kernel!))} ms for ${n} B read + ${4 * n} B written = ${mb(5 * n, median(kernel!))}`);
  console.log(`  copy shader:         ${fmt(median(copy!))} ms for ${4 * n} B read + ${4 * n} B written = ${mb(8 * n, median(copy!))}`);
  console.log(`  expand-copy shader:  ${fmt(median(expand!))} ms for the kernel's own bytes = ${mb(5 * n, median(expand!))}`);
  // Bandwidth fraction per round: (5n / t_kernel) / (8n / t_copy) = (5/8) t_copy / t_kernel.
  const vsCopy = estimateSpeedup({ a: copy!, b: kernel! });
  const vsExpand = estimateSpeedup({ a: expand!, b: kernel! });
  const pct = (x: number): string => `${fmt(100 * x, 0)}%`;
  console.log(
    `  kernel bandwidth / copy bandwidth: ${pct((5 / 8) * vsCopy.ratio.estimate)} [${pct((5 / 8) * vsCopy.ratio.lo)}, ${pct((5 / 8) * vsCopy.ratio.hi)}]`,
  );
  console.log(
    `  kernel bandwidth / expand-copy bandwidth (same bytes): ${pct(vsExpand.ratio.estimate)} [${pct(vsExpand.ratio.lo)}, ${pct(vsExpand.ratio.hi)}]`,
  );
}

async function main(): Promise<void> {
  const context = await startBackend('webgpu', 'webgpu');
  const a = context.adapter;
  console.log(`webgpu on ${a?.vendor} "${a?.description}"${a?.isSoftware ? ' (SOFTWARE adapter)' : ''}; tfjs ${tf.version.tfjs}`);
  const load = (): string =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  console.log(`load average at start: ${load()}`);
  const startTensors = tf.memory().numTensors;
  const rounds = Number(args.rounds);
  const sizes = args.sizes.split(',').map((s) => {
    const shape = SIZES[s];
    if (!shape) throw new RangeError(`unknown size '${s}'; known: ${Object.keys(SIZES).join(', ')}`);
    return shape;
  });
  for (const shape of sizes) await scenarioCase(context, shape, rounds);
  for (const shape of sizes) await generalCases(context, shape, Number(args['general-rounds']));
  await copyBandwidth(SIZES.large!, rounds);
  console.log(`\nleaked tensors: ${tf.memory().numTensors - startTensors}`);
  console.log(`load average at end: ${load()}`);
}

await main();
