/**
 * Side-by-side timing of the transfer strategies' variants in ONE process on webgpu (issue 13):
 * device-normalize as first written (tfjs upload + scalar program), with the harness's
 * writeBuffer upload, with the vec4 program (through runWebGPUProgram, or dispatched directly
 * into tfjs's encoder), with both; cpu-normalize as first written
 * (arithmetic into a new array + tfjs upload) and made fair (lookup table into a reused array
 * + writeBuffer upload). Interleaved rounds (every variant once per round, rotating the order,
 * all on the same batch), each time synced with the device; medians and per-round ratios vs
 * the first version with 95% bootstrap CIs.
 *
 *   npx tsx scripts/compare-transfer-variants.ts [--rounds-small N] [--rounds-large N] [--tune]
 *
 * --tune instead times the vec4 program's workgroup size and vec4s per invocation.
 * Every variant is first checked against the host reference and for leaked tensors.
 */
import * as tf from '@tensorflow/tfjs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startBackend } from '../src/backend/start.js';
import type { BackendContext } from '../src/backend/types.js';
import { seededRng } from '../src/base/random.js';
import { estimateSpeedup, sampleInterleaved } from '../src/measure/paired.js';
import { median } from '../src/measure/statistics.js';
import { timeSynced } from '../src/measure/timer.js';
import { DeviceUploadBuffers } from '../src/transfer/webgpu/device-upload.js';
import { ARTICLE_NORMALIZATION, normalizeOnHost } from '../src/transfer/normalization.js';
import { cpuNormalize, deviceNormalize, type PixelBatch, type TransferStrategy } from '../src/transfer/strategies/strategies.js';

interface Variant {
  readonly name: string;
  readonly strategy: TransferStrategy;
}

/** A speedup to report: time(baseline) / time(variant), per round. */
interface Comparison {
  readonly variant: string;
  readonly baseline: string;
}

interface Size {
  readonly label: string;
  readonly shape: PixelBatch['shape'];
  readonly rounds: number;
  readonly warmup: number;
}

const { values: args } = parseArgs({
  options: {
    'rounds-small': { type: 'string', default: '500' },
    'rounds-large': { type: 'string', default: '60' },
    tune: { type: 'boolean', default: false },
  },
});

function randomBatches(shape: PixelBatch['shape'], count: number, seed: number): PixelBatch[] {
  const rng = seededRng(seed);
  const size = shape.reduce((a, b) => a * b, 1);
  return Array.from({ length: count }, () => {
    const images = new Uint8Array(size);
    for (let i = 0; i < size; i++) images[i] = rng.int(256);
    return { images, shape };
  });
}

/** Checks every variant's output against the host reference and that it leaves no tensor. */
async function checkVariants(context: BackendContext, variants: readonly Variant[], batch: PixelBatch): Promise<void> {
  const reference = normalizeOnHost(batch.images, ARTICLE_NORMALIZATION);
  for (const { name, strategy } of variants) {
    const before = tf.memory().numTensors;
    const out = strategy.toDevice(batch);
    await context.sync(out);
    const values = (await out.data()) as Float32Array;
    out.dispose();
    let worst = 0;
    for (let i = 0; i < reference.length; i++) worst = Math.max(worst, Math.abs(values[i]! - reference[i]!));
    if (values.length !== reference.length || worst > 1e-6) throw new Error(`${name}: max |device - host| = ${worst} over ${values.length} values`);
    if (tf.memory().numTensors !== before) throw new Error(`${name} leaked ${tf.memory().numTensors - before} tensors`);
  }
}

const fmt = (x: number, digits = 3): string => x.toFixed(digits);

async function compare(context: BackendContext, { variants, comparisons }: Plan, size: Size): Promise<void> {
  const batches = randomBatches(size.shape, 2, size.shape[0] * 7919 + size.shape[1]);
  await checkVariants(context, variants, batches[0]!);
  const samples = await sampleInterleaved(
    variants.map(
      ({ strategy }) =>
        (round: number) =>
          timeSynced(context, () => strategy.toDevice(batches[round % batches.length]!)),
    ),
    { warmupRounds: size.warmup, rounds: size.rounds },
  );
  const byName = new Map(variants.map((v, i) => [v.name, samples[i]!]));
  console.log(`\n[${size.shape.join(',')}] ${size.label}: ${size.rounds} interleaved rounds (+${size.warmup} warm-up), synced`);
  for (const v of variants) console.log(`  ${v.name.padEnd(48)} median ${fmt(median(byName.get(v.name)!)).padStart(8)} ms`);
  console.log('  speedup = median of per-round time(baseline) / time(variant) [95% bootstrap CI]');
  for (const { variant, baseline } of comparisons) {
    const s = estimateSpeedup({ a: byName.get(baseline)!, b: byName.get(variant)! });
    console.log(`  ${variant.padEnd(48)} vs ${baseline.padEnd(48)} ${fmt(s.ratio.estimate, 2)}x [${fmt(s.ratio.lo, 2)}, ${fmt(s.ratio.hi, 2)}]`);
  }
}

const n = ARTICLE_NORMALIZATION;

interface Plan {
  readonly variants: readonly Variant[];
  readonly comparisons: readonly Comparison[];
}

const DEVICE_FIRST = 'device-normalize first (tfjs upload, scalar)';
const DEVICE_NOW = 'device-normalize now (writeBuffer, vec4, direct)';
const CPU_FIRST = 'cpu-normalize first (arithmetic, tfjs upload)';
const CPU_NOW = 'cpu-normalize now (table, writeBuffer)';

function transferPlan(context: BackendContext): Plan {
  const variants: Variant[] = [
    { name: DEVICE_FIRST, strategy: deviceNormalize(n, { upload: 'tfjs', program: 'scalar' }) },
    { name: 'device-normalize + writeBuffer upload', strategy: deviceNormalize(n, { upload: 'device-buffer', program: 'scalar' }) },
    { name: 'device-normalize + vec4 program (tfjs dispatch)', strategy: deviceNormalize(n, { upload: 'tfjs', program: 'vec4', dispatch: 'tfjs' }) },
    { name: 'device-normalize + vec4 program (direct dispatch)', strategy: deviceNormalize(n, { upload: 'tfjs', program: 'vec4' }) },
    { name: 'device-normalize + writeBuffer + vec4 (tfjs dispatch)', strategy: deviceNormalize(n, { program: 'vec4', dispatch: 'tfjs' }) },
    { name: DEVICE_NOW, strategy: deviceNormalize(n) },
    { name: CPU_FIRST, strategy: cpuNormalize(context, n, { prepare: 'arithmetic', upload: 'tfjs' }) },
    { name: 'cpu-normalize + table, reused array', strategy: cpuNormalize(context, n, { prepare: 'table', upload: 'tfjs' }) },
    { name: CPU_NOW, strategy: cpuNormalize(context, n) },
  ];
  const comparisons: Comparison[] = [
    ...variants.slice(1, 6).map((v) => ({ variant: v.name, baseline: DEVICE_FIRST })),
    ...variants.slice(7, 9).map((v) => ({ variant: v.name, baseline: CPU_FIRST })),
    // Section 6's speedup, both sides as first written, then both at their best.
    { variant: DEVICE_FIRST, baseline: CPU_FIRST },
    { variant: DEVICE_NOW, baseline: CPU_NOW },
  ];
  return { variants, comparisons };
}

function tunePlan(): Plan {
  const reference = 'scalar program, workgroup 64';
  const variants: Variant[] = [{ name: reference, strategy: deviceNormalize(n, { program: 'scalar' }) }];
  for (const workgroupSize of [64, 128, 256]) {
    for (const vec4PerInvocation of [1, 2, 4, 8]) {
      variants.push({
        name: `vec4 program, workgroup ${workgroupSize}, ${vec4PerInvocation} vec4/invocation`,
        strategy: deviceNormalize(n, { program: 'vec4', vec4: { workgroupSize, vec4PerInvocation } }),
      });
    }
  }
  return { variants, comparisons: variants.slice(1).map((v) => ({ variant: v.name, baseline: reference })) };
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
  const sizes: Size[] = [
    { label: 'MNIST batch', shape: [64, 28, 28, 1], rounds: Number(args['rounds-small']), warmup: 20 },
    { label: 'large batch', shape: [32, 224, 224, 3], rounds: Number(args['rounds-large']), warmup: 3 },
  ];
  const plan = args.tune ? tunePlan() : transferPlan(context);
  const startTensors = tf.memory().numTensors;
  for (const size of sizes) await compare(context, plan, size);
  const held = DeviceUploadBuffers.current().held();
  console.log(`\nleaked tensors: ${tf.memory().numTensors - startTensors}; harness upload buffers held: ${held.buffers} (${held.bytes} B)`);
  console.log(`load average at end: ${load()}`);
}

await main();
