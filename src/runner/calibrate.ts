import type * as tf from '@tensorflow/tfjs';
import Table from 'cli-table3';
import { describeBackend, startBackend } from '../backend/start.js';
import { BatchLoader, type Batch } from '../data/loader.js';
import { loadMnistPackage } from '../data/mnist-package.js';
import { seededRng } from '../data/random.js';
import { sampleInterleaved, samplePairs } from '../measure/paired.js';
import { median } from '../measure/statistics.js';
import { CLOCK, timeSynced } from '../measure/timer.js';
import { crossRunFalseAlarms, simulateCondition, toleranceWithoutFalseAlarms, type CalibrationPlan, type ConditionOutcome } from '../results/calibration.js';
import type { Metric } from '../results/schema.js';
import { writeJsonAtomic } from '../results/storage.js';
import { DEFAULT_TOLERANCE } from '../results/verdict.js';
import { ARTICLE_BATCH, SIZES } from '../suite/sizes.js';
import { cpuNormalize, deviceNormalize } from '../transfer/strategies.js';
import type { RunConfig } from '../run-config.js';
import { runScenarios } from './run-scenarios.js';
import { listScenarios, selectScenarios } from './scenarios.js';

// Rounds measured; simulated runs resample them (with replacement).
const POOL_ROUNDS = 1000;
const WARMUP_ROUNDS = 20;
// Separate processes for the A/A across processes.
const CROSS_RUNS = 8;
const PLAN: CalibrationPlan = { pairs: SIZES.quick.pairs, tolerance: DEFAULT_TOLERANCE.ratio, trials: 500, resamples: 1000 };

let sink = 0; // keeps the injected work observable, so it cannot be optimized away

/** Real extra work on the host: a checksum over `count` bytes, cycling through the batch. */
function checksum(bytes: Uint8Array, count: number): void {
  let s = sink;
  for (let i = 0; i < count; i++) s = (Math.imul(s, 31) + bytes[i % bytes.length]!) | 0;
  sink = s;
}

/** Milliseconds per checksummed byte (median of 15 timings over 1 MB). */
function msPerByte(bytes: Uint8Array): number {
  const n = 1 << 20;
  const times = Array.from({ length: 15 }, () => {
    const start = performance.now();
    checksum(bytes, n);
    return (performance.now() - start) / n;
  });
  return median(times);
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/**
 * `npm run perf:calibrate`: measures how trustworthy the ratio verdicts are on this machine.
 * Pools of real interleaved pairs are measured for four conditions (A/A, the real comparison,
 * and device-normalize slowed by 10% and 20% of real extra host work); many `npm run perf`
 * cycles are then simulated by resampling the pools and judged exactly as a run is.
 */
export async function runCalibrate(config: RunConfig): Promise<number> {
  const context = await startBackend(config.backend, config.requireBackend);
  console.log(describeBackend(context));
  const batches = [...new BatchLoader(loadMnistPackage(), { ...ARTICLE_BATCH, dropLast: true }).epoch(0)];
  const hostStrategy = cpuNormalize(context);
  const device = deviceNormalize();

  // Every variant of a round works on that round's batch, whatever the rotation.
  const timeOn = (work: (b: Batch) => tf.Tensor) => (round: number): Promise<number> => timeSynced(context, () => work(batches[round % batches.length]!));
  const slowed = (count: number) => (b: Batch) => {
    checksum(b.images, count);
    return device.toDevice(b);
  };
  // Size the injected work by feedback: measure the slowdown it causes against device-normalize
  // in interleaved rounds and rescale, three times (JIT and caches make a one-shot estimate miss).
  const sizeWork = async (target: number): Promise<number> => {
    let count = Math.round((target * 0.3) / msPerByte(batches[0]!.images));
    for (let i = 0; i < 3; i++) {
      const [plain, extra] = await sampleInterleaved([timeOn((b) => device.toDevice(b)), timeOn(slowed(count))], { warmupRounds: 10, rounds: 150 });
      const achieved = median(extra!) / median(plain!) - 1;
      count = Math.max(1, Math.round((count * target) / Math.max(achieved, 0.01)));
    }
    return count;
  };
  const bytes10 = await sizeWork(0.1);
  const bytes20 = await sizeWork(0.2);

  console.log(`Measuring ${POOL_ROUNDS} interleaved rounds of 5 variants (${CLOCK})...`);
  const started = performance.now();
  // One round: cpu-normalize, device-normalize twice (for A/A), and device-normalize with +10%
  // and +20% of extra host work, all on the same batch, in rotating order.
  const [host, dev, dev2, dev10, dev20] = await sampleInterleaved(
    [timeOn((b) => hostStrategy.toDevice(b)), timeOn((b) => device.toDevice(b)), timeOn((b) => device.toDevice(b)), timeOn(slowed(bytes10)), timeOn(slowed(bytes20))],
    { warmupRounds: WARMUP_ROUNDS, rounds: POOL_ROUNDS },
  ) as [number[], number[], number[], number[], number[]];
  const measureSeconds = (performance.now() - started) / 1000;
  const baseline = { a: host, b: dev };

  // What one real run of the speedup scenario costs: its warm-up plus its pairs.
  const runStart = performance.now();
  await samplePairs({ warmupPairs: SIZES.quick.warmupPairs, pairs: SIZES.quick.pairs, runA: timeOn((b) => hostStrategy.toDevice(b)), runB: timeOn((b) => device.toDevice(b)) });
  const runSeconds = (performance.now() - runStart) / 1000;

  const rng = seededRng(20261202);
  const conditions: Array<{ name: string; slowdown: number | null; outcome: ConditionOutcome }> = [
    { name: 'A/A (device-normalize vs itself)', slowdown: null, outcome: simulateCondition({ a: dev, b: dev2 }, { a: dev, b: dev2 }, PLAN, rng) },
    { name: 'no change (cpu- vs device-normalize)', slowdown: 0, outcome: simulateCondition(baseline, baseline, PLAN, rng) },
    { name: 'device-normalize +10% work', slowdown: median(dev10) / median(dev) - 1, outcome: simulateCondition(baseline, { a: host, b: dev10 }, PLAN, rng) },
    { name: 'device-normalize +20% work', slowdown: median(dev20) / median(dev) - 1, outcome: simulateCondition(baseline, { a: host, b: dev20 }, PLAN, rng) },
  ];

  const table = new Table({
    head: ['condition', 'measured slowdown', 'flagged first', 'regressed (after re-measure)', 'improved', 'median CI width'],
    style: { head: [], border: [] },
  });
  for (const c of conditions) {
    const o = c.outcome;
    table.push([c.name, c.slowdown === null ? '-' : pct(c.slowdown), pct(o.flaggedFirst), pct(o.regressed), pct(o.improved), pct(o.medianRelativeCIWidth)]);
  }
  const [aaRow, , s10, s20] = conditions;
  console.log(`\nVerdict calibration on ${context.name}${context.adapter ? ` (${context.adapter.description})` : ''}: ${PLAN.trials} simulated runs per condition of ${PLAN.pairs} pairs, tolerance ${pct(PLAN.tolerance)}, ${PLAN.resamples} bootstrap resamples per CI`);
  console.log(table.toString());
  console.log(`False-alarm rate (A/A regressed): ${pct(aaRow!.outcome.regressed)} (goal <= 1%)`);
  console.log(`Detection of +20%: ${pct(s20!.outcome.regressed)} (goal >= 95%); of +10%: ${pct(s10!.outcome.regressed)}`);
  console.log(`Median 95% CI width of the speedup at ${PLAN.pairs} pairs: ${pct(conditions[1]!.outcome.medianRelativeCIWidth)} of the estimate`);
  console.log(`Wall time of one quick-scale speedup measurement (${SIZES.quick.warmupPairs} warm-up + ${SIZES.quick.pairs} pairs): ${runSeconds.toFixed(2)} s; the pools took ${measureSeconds.toFixed(1)} s`);

  // Between processes: what one process's pairs cannot show (JIT, allocator and driver state).
  console.log(`\nRunning the speedup scenario in ${CROSS_RUNS} separate processes (A/A across processes)...`);
  const files = selectScenarios(listScenarios(), ['speedup']);
  const runConfig: RunConfig = { ...config, scale: 'quick', selection: files.map((f) => f.path) };
  const runs: Metric[] = [];
  for (let k = 0; k < CROSS_RUNS; k++) {
    const record = await runScenarios(files, runConfig, { quiet: true });
    const speedup = record?.metrics.find((m) => m.id === 'mnist-transfer.speedup');
    if (!speedup) throw new Error(`speedup run ${k + 1} recorded no mnist-transfer.speedup: ${record?.errors[0]?.message ?? 'no record'}`);
    runs.push(speedup);
  }
  const cross = crossRunFalseAlarms(runs, PLAN.tolerance);
  const runsTable = new Table({ head: ['process', 'speedup', '95% CI'], style: { head: [], border: [] } });
  runs.forEach((m, k) => runsTable.push([k + 1, m.value.toFixed(3), `[${m.ci![0].toFixed(3)}, ${m.ci![1].toFixed(3)}]`]));
  console.log(runsTable.toString());
  console.log(
    `Across processes: estimates ${cross.range[0].toFixed(2)}-${cross.range[1].toFixed(2)}; of ${cross.comparisons} run-vs-baseline comparisons ` +
      `${pct(cross.flaggedFirst)} flagged, ${pct(cross.regressed)} regressed after re-measuring (false alarms), ${pct(cross.improved)} "improved" (false).`,
  );
  const safeTolerance = toleranceWithoutFalseAlarms(runs);
  console.log(
    `A ratio tolerance of ${pct(safeTolerance)} would have raised no false alarm across these processes; ` +
      `put it in baselines/tolerances.json ("mnist-transfer.speedup": ${safeTolerance}) before gating timing (PERF_GATE_TIMING=1) on this machine.`,
  );

  const path = `results/calibration-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
  await writeJsonAtomic(path, { plan: PLAN, backend: context.name, adapter: context.adapter, poolRounds: POOL_ROUNDS, conditions, runSeconds, measureSeconds, crossProcess: { ...cross, safeTolerance, estimates: runs.map((m) => ({ value: m.value, ci: m.ci })) } });
  console.log(`Written: ${path}`);
  return 0;
}
