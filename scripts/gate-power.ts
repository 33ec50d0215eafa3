/**
 * The power of an A/B gate from the spread its processes showed: given run records of K processes
 * each (`gtp perf --processes K`, e.g. a baseline's launches), the between-process SD of a ratio's
 * logs, and then many A/B decisions resampled from normal pools with that SD, judged exactly as
 * `gtp ab` judges (results/calibration.ts resampledDecision: K + K, a second look when
 * inconclusive, the permutation test at alpha 0.005, the tolerance). It reports the false alarms of
 * an unchanged head and how often a slower head is called a regression; higher is better for the
 * slowdowns, lower for the A/A. A model, not a measurement of decisions: the pools are normal with
 * the measured SD (8 launches give too few values to draw two looks from without replacement).
 *
 *   npx tsx scripts/gate-power.ts --metric browser-mnist.speedup --per-arm 6 RUN.json [RUN.json...]
 *   npx tsx scripts/gate-power.ts --per-arm 8 --sd 6.6      (an SD measured elsewhere, e.g. perf:calibrate's, in %)
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { betweenProcessSd, resampledDecision, tally } from '../src/results/calibration.js';
import { DEFAULT_PROCESS_ALPHA } from '../src/results/process-verdict.js';
import { seededRng } from '../src/base/random.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    metric: { type: 'string', default: 'browser-mnist.speedup' },
    'per-arm': { type: 'string', default: '6' },
    tolerance: { type: 'string', default: '0.1' },
    decisions: { type: 'string', default: '2000' },
    sd: { type: 'string' },
  },
});
const perArm = Number(values['per-arm']);
const tolerance = Number(values.tolerance);
const decisions = Number(values.decisions);

const sds: number[] = [];
for (const path of positionals) {
  const record = JSON.parse(await readFile(path, 'utf8')) as { metrics: Array<{ id: string; processes?: number[] }> };
  const processes = record.metrics.find((m) => m.id === values.metric)?.processes;
  if (!processes || processes.length < 3) throw new Error(`${path}: ${values.metric} has no per-process values (a --processes K run)`);
  const sd = betweenProcessSd(processes);
  sds.push(sd);
  console.log(
    `${path}: ${processes.length} processes, ${values.metric} ${processes.map((v) => v.toFixed(3)).join(' ')}, between-process SD of logs ${(100 * sd).toFixed(1)}%`,
  );
}
if (values.sd !== undefined) {
  const given = Number(values.sd) / 100;
  if (!(given > 0)) throw new RangeError(`--sd ${values.sd}: a between-process SD of logs in percent, above 0`);
  sds.push(given);
  console.log(`--sd: between-process SD of logs ${values.sd}%`);
}
if (sds.length === 0) throw new Error('give run records of a --processes K run, or --sd');
// The pooled SD (equal weights: each record is one sitting of the same K).
const sd = Math.sqrt(sds.reduce((s, x) => s + x * x, 0) / sds.length);
const rng = seededRng(20261207);
// Box-Muller: a standard normal from two uniforms.
const normal = () => Math.sqrt(-2 * Math.log(1 - rng.float())) * Math.cos(2 * Math.PI * rng.float());
const pool = (shift: number) => Array.from({ length: 4000 }, () => Math.exp(Math.log(1 + shift) + sd * normal()));
const base = pool(0);
console.log(
  `\npooled between-process SD ${(100 * sd).toFixed(1)}%; ${perArm} + ${perArm} processes (+ ${perArm} + ${perArm} when inconclusive), tolerance ${100 * tolerance}%, alpha ${DEFAULT_PROCESS_ALPHA}, ${decisions} decisions each:`,
);
for (const shift of [0, -0.1, -0.159, -0.2, -0.25]) {
  // A fresh pool for the head too: the A/A's arms are drawn from two samples, as two commits' processes are.
  const head = pool(shift);
  const outcome = tally(Array.from({ length: decisions }, () => resampledDecision(base, head, { perArm, tolerance, alpha: DEFAULT_PROCESS_ALPHA }, rng)));
  const pct = (r: { readonly rate: number; readonly ci: readonly [number, number] }) =>
    `${(100 * r.rate).toFixed(1)}% [${(100 * r.ci[0]).toFixed(1)}, ${(100 * r.ci[1]).toFixed(1)}]`;
  const what = shift === 0 ? 'A/A (unchanged head): regressed, a false alarm' : `head ${(100 * shift).toFixed(1)}% (a slower ratio): regressed, caught`;
  console.log(
    `  ${what}: ${pct(outcome.rates.regressed)}; inconclusive ${pct(outcome.rates.inconclusive)}; ${outcome.meanProcesses.toFixed(1)} processes a decision`,
  );
}
