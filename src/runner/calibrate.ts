import Table from 'cli-table3';
import { seededRng } from '../base/random.js';
import { median } from '../measure/statistics.js';
import { betweenProcessSd, resampledDecision, tally, type DecisionOutcome, type DecisionPlan } from '../results/calibration.js';
import { judgeProcesses } from '../results/process-verdict.js';
import { DEFAULT_PROCESS_ALPHA } from '../results/process-verdict.js';
import { writeJsonAtomic } from '../results/storage.js';
import type { RunConfig } from '../run-config.js';
import { runScenarios } from './run-scenarios.js';
import { listScenarios, selectScenarios } from './scenarios.js';
import { MNIST_SPEEDUP_ID } from '../results/metric-ids.js';
import { EXIT } from '../results/exit.js';

const SPEEDUP = MNIST_SPEEDUP_ID;
const PLAN: DecisionPlan = { perArm: 8, tolerance: 0.1, alpha: DEFAULT_PROCESS_ALPHA };
const RESAMPLED_DECISIONS = 2000;

/** A calibration condition: the head's device-normalize does `extraWork` more real work. */
const CONDITIONS = [
  { name: 'A', extraWork: 0 },
  { name: "A'", extraWork: 0 },
  { name: '+20%', extraWork: 0.2 },
  { name: '+10%', extraWork: 0.1 },
] as const;

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const rate = (o: DecisionOutcome, k: keyof DecisionOutcome['rates']) => `${pct(o.rates[k].rate)} [${pct(o.rates[k].ci[0])}, ${pct(o.rates[k].ci[1])}]`;

/**
 * `npm run perf:calibrate`: measures, for real on this machine, how trustworthy the
 * cross-process verdicts are. `perCondition` processes of the speedup scenario for each of four
 * conditions (A and A' unchanged, head +20% and +10% real work in device-normalize), run one
 * after another in rotating order; then (1) the within- and between-process spread, (2) the
 * real decisions that disjoint blocks of 8 + 8 (+ 8 + 8) processes give, and (3) many decisions
 * resampled from the pools, judged exactly as perf:ab and CI judge.
 */
export async function runCalibrate(config: RunConfig, perCondition = 60): Promise<number> {
  if (perCondition < 4 * PLAN.perArm)
    throw new RangeError(`perf:calibrate: --processes must be at least ${4 * PLAN.perArm} (two looks of ${PLAN.perArm} per arm, drawn without replacement)`);
  const files = selectScenarios(listScenarios(), ['speedup']);
  const runConfig: RunConfig = { ...config, scale: 'quick', selection: files.map((f) => f.path) };
  const pools: number[][] = CONDITIONS.map(() => []);
  const withinSe: number[] = [];
  const started = performance.now();
  for (let round = 0; round < perCondition; round++) {
    for (let j = 0; j < CONDITIONS.length; j++) {
      const c = (round + j) % CONDITIONS.length;
      const record = await runScenarios(files, { ...runConfig, extraWork: CONDITIONS[c]!.extraWork }, { quiet: true });
      const speedup = record?.metrics.find((m) => m.id === SPEEDUP);
      if (!speedup) throw new Error(`process ${round + 1} (${CONDITIONS[c]!.name}) recorded no ${SPEEDUP}: ${record?.errors[0]?.message ?? 'no record'}`);
      pools[c]!.push(speedup.value);
      if (speedup.ci) withinSe.push((Math.log(speedup.ci[1]) - Math.log(speedup.ci[0])) / 3.92);
    }
    const done = round + 1;
    const eta = ((performance.now() - started) / done) * (perCondition - done);
    console.log(
      `[calibrate] round ${done}/${perCondition}: A ${pools[0]!.at(-1)!.toFixed(3)}, +20% ${pools[2]!.at(-1)!.toFixed(3)}; ~${(eta / 60_000).toFixed(1)} min left`,
    );
  }
  const minutes = (performance.now() - started) / 60_000;
  const secondsPerProcess = (minutes * 60) / (perCondition * CONDITIONS.length);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  // The pools first: what took the minutes is kept even if the analysis below fails.
  await writeJsonAtomic(`results/calibration-pools-${stamp}.json`, {
    perCondition,
    minutes,
    pools: Object.fromEntries(CONDITIONS.map((c, k) => [c.name, pools[k]])),
    withinSe,
  });
  const [a, a2, s20, s10] = pools as [number[], number[], number[], number[]];

  // Real decisions: disjoint blocks in time order, first look 8 + 8, second look 8 + 8 more.
  const real = (head: number[]) => {
    const out = [];
    for (let i = 0; i + 2 * PLAN.perArm <= perCondition; i += 2 * PLAN.perArm) {
      const opts = { tolerance: PLAN.tolerance, alpha: PLAN.alpha };
      const first = judgeProcesses({ id: SPEEDUP, kind: 'ratio', base: a.slice(i, i + 8), head: head.slice(i, i + 8) }, opts);
      out.push(
        first.verdict !== 'inconclusive'
          ? { verdict: first.verdict, processes: 16 }
          : { verdict: judgeProcesses({ id: SPEEDUP, kind: 'ratio', base: a.slice(i, i + 16), head: head.slice(i, i + 16) }, opts).verdict, processes: 32 },
      );
    }
    return tally(out);
  };
  const rng = seededRng(20261202);
  const resampled = (head: number[]) => tally(Array.from({ length: RESAMPLED_DECISIONS }, () => resampledDecision(a, head, PLAN, rng)));
  const rows = [
    { name: "A/A (A vs A')", real: real(a2), resampled: resampled(a2), slowdown: median(a2) / median(a) - 1 },
    { name: 'device-normalize +20% work', real: real(s20), resampled: resampled(s20), slowdown: median(a) / median(s20) - 1 },
    { name: 'device-normalize +10% work', real: real(s10), resampled: resampled(s10), slowdown: median(a) / median(s10) - 1 },
  ];

  const table = new Table({
    head: [
      'condition',
      'speedup moved',
      'real decisions: regressed',
      `resampled (${RESAMPLED_DECISIONS}): regressed`,
      'inconclusive',
      'processes per decision',
      'minutes per decision',
    ],
    style: { head: [], border: [] },
  });
  for (const r of rows) {
    table.push([
      r.name,
      pct(r.slowdown),
      `${Math.round(r.real.rates.regressed.rate * r.real.decisions)}/${r.real.decisions}`,
      rate(r.resampled, 'regressed'),
      rate(r.resampled, 'inconclusive'),
      r.resampled.meanProcesses.toFixed(1),
      ((r.resampled.meanProcesses * secondsPerProcess) / 60).toFixed(1),
    ]);
  }
  console.log(
    `\nCross-process calibration: ${perCondition} processes per condition (${perCondition * CONDITIONS.length} in all, ${minutes.toFixed(1)} min, ${secondsPerProcess.toFixed(1)} s each); decisions 8 + 8, then 8 + 8 more when inconclusive; tolerance ${pct(PLAN.tolerance)}, alpha ${PLAN.alpha} per look.`,
  );
  console.log(
    `Per-process speedup: A median ${median(a).toFixed(3)}; between-process SD ${pct(betweenProcessSd(a))} (log scale); within-process SE ${pct(median(withinSe))} (from each process's own CI).`,
  );
  console.log(table.toString());
  console.log(
    `Goals: A/A false alarms <= 1% (got ${rate(rows[0]!.resampled, 'regressed')}); +20% caught >= 95% (got ${rate(rows[1]!.resampled, 'regressed')}); <= 5 CI minutes per decision.`,
  );
  const path = `results/calibration-${stamp}.json`;
  await writeJsonAtomic(path, {
    plan: PLAN,
    perCondition,
    minutes,
    secondsPerProcess,
    pools: Object.fromEntries(CONDITIONS.map((c, k) => [c.name, pools[k]])),
    withinProcessSe: median(withinSe),
    betweenProcessSd: betweenProcessSd(a),
    rows,
  });
  console.log(`Written: ${path}`);
  return EXIT.pass;
}
