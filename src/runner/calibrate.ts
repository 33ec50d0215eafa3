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
import { adjustForCovariate, covariateIdOf, isCovariateMetric } from '../results/covariate.js';
import { DEFAULT_TOLERANCE } from '../results/verdict.js';
import { hostProbeId } from '../results/metrics.js';
import { EXIT } from '../results/exit.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BackendChoice } from '../backend/types.js';
import { commandLine, commandName } from '../base/commands.js';
import { studentTQuantile } from '../measure/statistics.js';
import { readToleranceOverrides } from '../results/baseline.js';
import type { ProcessVerdict } from '../results/process-verdict.js';
import type { RunRecord } from '../results/schema.js';
import { abbaOrder, type Arm, harnessOf, runProcess, startHost } from './ab.js';
import { RunInputError } from './perf.js';

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
  const pools = await measureConditions(config, perCondition);
  return writeConditions(pools, judgeConditions(pools));
}

/** The four conditions' per-process speedups and host-state probes (index by index), the within-process SEs and the time taken. */
export interface ConditionPools {
  readonly perCondition: number;
  readonly pools: readonly number[][];
  readonly probes: readonly number[][];
  readonly withinSe: readonly number[];
  readonly minutes: number;
  /** The time stamp of this calibration's files in results/. */
  readonly stamp: string;
}

/**
 * The measure phase of the four-condition calibration: `perCondition` processes of the speedup
 * scenario per condition in rotating order; the pools written to results/ at once, so what took
 * the minutes is kept even if the analysis fails.
 */
async function measureConditions(config: RunConfig, perCondition: number): Promise<ConditionPools> {
  const files = selectScenarios(listScenarios(), ['speedup']);
  const runConfig: RunConfig = { ...config, scale: 'quick', selection: files.map((f) => f.path) };
  const pools: number[][] = CONDITIONS.map(() => []);
  // The host-state probe of each process (index by index with pools): the verdicts' covariate.
  const probes: number[][] = CONDITIONS.map(() => []);
  const withinSe: number[] = [];
  const started = performance.now();
  for (let round = 0; round < perCondition; round++) {
    for (let j = 0; j < CONDITIONS.length; j++) {
      const c = (round + j) % CONDITIONS.length;
      const record = await runScenarios(files, { ...runConfig, extraWork: CONDITIONS[c]!.extraWork }, { quiet: true });
      const speedup = record?.metrics.find((m) => m.id === SPEEDUP);
      if (!speedup) throw new Error(`process ${round + 1} (${CONDITIONS[c]!.name}) recorded no ${SPEEDUP}: ${record?.errors[0]?.message ?? 'no record'}`);
      pools[c]!.push(speedup.value);
      probes[c]!.push(record?.metrics.find((m) => m.id === hostProbeId(SPEEDUP))?.value ?? Number.NaN);
      if (speedup.ci) withinSe.push((Math.log(speedup.ci[1]) - Math.log(speedup.ci[0])) / 3.92);
    }
    const done = round + 1;
    const eta = ((performance.now() - started) / done) * (perCondition - done);
    console.log(
      `[calibrate] round ${done}/${perCondition}: A ${pools[0]!.at(-1)!.toFixed(3)}, +20% ${pools[2]!.at(-1)!.toFixed(3)}; ~${(eta / 60_000).toFixed(1)} min left`,
    );
  }
  const minutes = (performance.now() - started) / 60_000;
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  // The pools first: what took the minutes is kept even if the analysis below fails.
  await writeJsonAtomic(`results/calibration-pools-${stamp}.json`, {
    perCondition,
    minutes,
    pools: Object.fromEntries(CONDITIONS.map((c, k) => [c.name, pools[k]])),
    probes: Object.fromEntries(CONDITIONS.map((c, k) => [c.name, probes[k]])),
    withinSe,
  });
  return { perCondition, pools, probes, withinSe, minutes, stamp };
}

/** What the four conditions found: real and resampled decisions per condition, the ones perf:ab makes, the adjusted spread. */
type ConditionsJudged = ReturnType<typeof judgeConditions>;

/**
 * The judge phase of the four-condition calibration, on the pools alone: the real decisions of
 * disjoint blocks and many resampled ones per condition, plain and (where every process has its
 * probe) adjusted for the host state. `resampledDecisions`: how many resampled decisions make each rate.
 */
export function judgeConditions(
  { perCondition, pools, probes }: Pick<ConditionPools, 'perCondition' | 'pools' | 'probes'>,
  resampledDecisions = RESAMPLED_DECISIONS,
) {
  const [a, a2, s20, s10] = pools as [number[], number[], number[], number[]];
  // Judged adjusted for the host state as perf:ab judges, where every process recorded its probe.
  const probed = probes.every((p) => p.every((x) => x > 0));
  const withProbes = (k: number) => ({ values: pools[k]!, probes: probes[k]! });

  // Real decisions: disjoint blocks in time order, first look 8 + 8, second look 8 + 8 more.
  const real = (k: number, adjusted: boolean) => {
    const head = pools[k]!;
    const out = [];
    const opts = { tolerance: PLAN.tolerance, alpha: PLAN.alpha };
    const judge = (i: number, n: number) => {
      const covariate = adjusted ? { covariate: { base: probes[0]!.slice(i, i + n), head: probes[k]!.slice(i, i + n) } } : {};
      return judgeProcesses({ id: SPEEDUP, kind: 'ratio', base: a.slice(i, i + n), head: head.slice(i, i + n), ...covariate }, opts);
    };
    for (let i = 0; i + 2 * PLAN.perArm <= perCondition; i += 2 * PLAN.perArm) {
      const first = judge(i, PLAN.perArm);
      out.push(first.verdict !== 'inconclusive' ? { verdict: first.verdict, processes: 16 } : { verdict: judge(i, 2 * PLAN.perArm).verdict, processes: 32 });
    }
    return tally(out);
  };
  const rng = seededRng(20261202);
  const resampled = (k: number, adjusted: boolean) =>
    tally(Array.from({ length: resampledDecisions }, () => resampledDecision(adjusted ? withProbes(0) : a, adjusted ? withProbes(k) : pools[k]!, PLAN, rng)));
  const named = [
    { name: "A/A (A vs A')", k: 1, slowdown: median(a2) / median(a) - 1 },
    { name: 'device-normalize +20% work', k: 2, slowdown: median(a) / median(s20) - 1 },
    { name: 'device-normalize +10% work', k: 3, slowdown: median(a) / median(s10) - 1 },
  ];
  const rows = [false, ...(probed ? [true] : [])].flatMap((adjusted) =>
    named.map((r) => ({
      name: `${r.name}${adjusted ? ', adjusted for the host state' : ''}`,
      adjusted,
      real: real(r.k, adjusted),
      resampled: resampled(r.k, adjusted),
      slowdown: r.slowdown,
    })),
  );
  // What perf:ab does: adjusted where the probes are there.
  const gated = rows.slice(probed ? named.length : 0);
  // The spread left once each process is moved along the host-state slope (A and A' together).
  const adjustedA = probed ? adjustForCovariate({ values: a, covariate: probes[0]! }, { values: a2, covariate: probes[1]! }) : null;
  return { a, probed, rows, gated, adjustedA };
}

/** The write phase of the four-condition calibration: the table and the goals on the console, results/calibration-<time>.json; exit 0. */
async function writeConditions(measured: ConditionPools, { a, probed, rows, gated, adjustedA }: ConditionsJudged): Promise<number> {
  const { perCondition, pools, probes, withinSe, minutes, stamp } = measured;
  const secondsPerProcess = (minutes * 60) / (perCondition * CONDITIONS.length);
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
  if (adjustedA)
    console.log(
      `Adjusted for the host state (A and A' together, slope ${adjustedA.slope.toFixed(2)} per log unit of the probe, R² ${adjustedA.explained.toFixed(2)}): between-process SD ${pct(betweenProcessSd([...adjustedA.base, ...adjustedA.head]))}.`,
    );
  else console.log('Not adjusted for the host state: some process recorded no host-state probe.');
  console.log(table.toString());
  console.log(
    `Goals (issue 27), as perf:ab judges${probed ? ', adjusted for the host state' : ''}: A/A false alarms <= 1% (got ${rate(gated[0]!.resampled, 'regressed')}); +10% caught >= 90% (got ${rate(gated[2]!.resampled, 'regressed')}); +20% caught (got ${rate(gated[1]!.resampled, 'regressed')}).`,
  );
  const path = `results/calibration-${stamp}.json`;
  await writeJsonAtomic(path, {
    plan: PLAN,
    perCondition,
    minutes,
    secondsPerProcess,
    pools: Object.fromEntries(CONDITIONS.map((c, k) => [c.name, pools[k]])),
    probes: Object.fromEntries(CONDITIONS.map((c, k) => [c.name, probes[k]])),
    withinProcessSe: median(withinSe),
    betweenProcessSd: betweenProcessSd(a),
    ...(adjustedA
      ? { adjusted: { slope: adjustedA.slope, explained: adjustedA.explained, betweenProcessSd: betweenProcessSd([...adjustedA.base, ...adjustedA.head]) } }
      : {}),
    rows,
  });
  console.log(`Written: ${path}`);
  return EXIT.pass;
}

/** What `gtp calibrate` in a user's project is asked to do. */
export interface OwnCalibrateOptions {
  readonly backend: BackendChoice;
  /** Processes per arm of the A/A (A and A', alternated in ABBA order). */
  readonly perArm: number;
  /** Write the smallest supported tolerances to this tolerances file (merged with its entries); null: print only. */
  readonly writeTolerances: string | null;
  /** Scenarios to measure (this repository's built-in ones); empty: all of the project's perf files. */
  readonly scenarios?: readonly string[];
}

/** The A/A's default processes per arm in a user's project: 40 in all, about 2-3 minutes for a perf file of a few seconds. */
export const OWN_CALIBRATE_PER_ARM = 20;

/** The processes per arm `gtp ab` uses by default (cli/args.ts), for which the tolerance is worked out. */
const AB_PROCESSES = 8;
/** The chance an unchanged commit must have to pass at the first look with the smallest supported tolerance. */
const PASS_POWER = 0.95;
const Z_95 = 1.6448536;

/**
 * The upper 95% confidence bound of a standard deviation `sd` estimated with `df` degrees of
 * freedom: sd * sqrt(df / chi2_0.05(df)), the chi-square quantile by Wilson & Hilferty's cube-root
 * approximation (1931; within 1% for df >= 5). A spread measured on few processes may be too
 * small by chance; a tolerance built on it must not be.
 */
export function sdUpperBound(sd: number, df: number): number {
  const c = 2 / (9 * df);
  const chi2 = df * (1 - c - Z_95 * Math.sqrt(c)) ** 3;
  return sd * Math.sqrt(df / chi2);
}

/**
 * (t(1 - alpha, 2K - 2) + z(PASS_POWER)) * sqrt(2 / K): how far the log change of an unchanged
 * commit's K + K processes reaches towards the worse, per unit of between-process SD, at the pass
 * power (smallestTolerance below; bisect's toleratedSpread inverts it).
 */
export function passReach(k: number, alpha = DEFAULT_PROCESS_ALPHA): number {
  return (studentTQuantile(1 - alpha, 2 * k - 2) + Z_95) * Math.sqrt(2 / k);
}

/**
 * The smallest tolerance with which `gtp ab` (K + K processes, alpha per side) passes an
 * unchanged commit at its first look with probability PASS_POWER, for a between-process SD `sd`
 * of logs. A/B passes when the bad-side bound of the (1 - 2 alpha) interval of the log change
 * lies inside twice the tolerance (results/process-verdict.ts), so on an A/A the change d ~
 * N(0, se) with se = sd * sqrt(2 / K) must satisfy d - t * se > log(1 - 2 tol) (a ratio) or
 * d + t * se < log(1 + 2 tol) (a time) with chance PASS_POWER: 2 tol = 1 - exp(-(t + z) se) or
 * exp((t + z) se) - 1, t = t(1 - alpha, 2K - 2) (the permutation interval taken as the t
 * interval it approximates), z = z(PASS_POWER). Rounded up to half a percent.
 */
export function smallestTolerance(sd: number, kind: 'ratio' | 'time', k = AB_PROCESSES, alpha = DEFAULT_PROCESS_ALPHA): number {
  const reach = passReach(k, alpha) * sd;
  const tolerance = kind === 'ratio' ? (1 - Math.exp(-reach)) / 2 : (Math.exp(reach) - 1) / 2;
  return Math.ceil(tolerance * 200) / 200;
}

/** One metric's calibration: its spread across processes and what it supports. */
export interface MetricSpread {
  readonly id: string;
  readonly kind: 'ratio' | 'time';
  readonly median: number;
  readonly sd: number;
  readonly sdUpper: number;
  readonly tolerance: number;
  /** The A/A's own verdict (A vs A') at the tolerance in force now. */
  readonly aa: ProcessVerdict;
  /** Spread and verdict adjusted for the metric's host-state probe (results/covariate.ts). */
  readonly adjusted: boolean;
}

/**
 * `gtp calibrate` in a user's project: an A/A of the project's own perf files. 2 x perArm
 * processes of the working tree, measured by its installed harness in one measure host as
 * `gtp ab` measures an arm, labelled A and A' in ABBA order; for each ratio and time metric
 * every process recorded, the between-process SD of its logs (with a 95% upper bound), the
 * smallest tolerance that bound supports for `gtp ab` at its default processes, and the A/A's own
 * verdict at the tolerance in force. Writes the tolerances only when asked.
 */
export async function runOwnCalibrate(options: OwnCalibrateOptions): Promise<number> {
  if (options.perArm < 3) throw new RunInputError(`calibrate: --processes must be at least 3 per arm (a spread needs them), got ${options.perArm}`);
  const existing = options.writeTolerances ? await readToleranceOverrides(options.writeTolerances) : await readToleranceOverrides();
  const pools = await measureAa(options);
  return writeAa(options, pools, judgeAa(pools, existing), existing);
}

/** The A/A's processes, each arm's records in ABBA order, how long they took and the harness that measured them. */
export interface AaPools {
  readonly A: readonly RunRecord[];
  readonly "A'": readonly RunRecord[];
  readonly minutes: number;
  readonly harnessVersion: string | null;
}

/** The measure phase of the A/A: 2 x perArm processes of the working tree in one measure host. */
async function measureAa(options: Pick<OwnCalibrateOptions, 'perArm' | 'backend' | 'scenarios'>): Promise<AaPools> {
  const measure = { scenarios: options.scenarios ?? [], backend: options.backend };
  const work = await mkdtemp(join(tmpdir(), 'gtp-calibrate-'));
  const arm: Arm = {
    name: 'base',
    label: 'working tree',
    commit: '',
    dir: process.cwd(),
    records: [],
    harness: harnessOf(process.cwd(), 'working tree'),
    host: null,
  };
  const pools: { A: RunRecord[]; "A'": RunRecord[] } = { A: [], "A'": [] };
  const started = performance.now();
  try {
    startHost(arm, measure);
    for (const [i, pair] of abbaOrder(options.perArm).entries()) {
      for (const side of pair.map((name): 'A' | "A'" => (name === 'base' ? 'A' : "A'"))) {
        console.log(`[${commandName('calibrate')}] pair ${i + 1}/${options.perArm}: ${side}`);
        pools[side].push(await runProcess(arm, measure, join(work, `${side === 'A' ? 'a' : 'a2'}-${i}.json`)));
      }
    }
  } finally {
    await arm.host?.close();
    await rm(work, { recursive: true, force: true });
  }
  return { ...pools, minutes: (performance.now() - started) / 60_000, harnessVersion: arm.harness.version ?? null };
}

/** What the A/A found: each metric's spread and the tolerance it supports, and the processes' errors. */
export interface AaJudged {
  readonly spreads: readonly MetricSpread[];
  readonly errors: readonly string[];
}

/**
 * The judge phase of the A/A, on its records alone: for each ratio and time metric every process
 * recorded, its between-process spread, the tolerance that supports and the A/A's own verdict at
 * the tolerance in force (`existing` overrides, else the plan's).
 */
export function judgeAa(pools: Pick<AaPools, 'A' | "A'">, existing: Readonly<Record<string, number>>): AaJudged {
  const errors = [...pools.A, ...pools["A'"]].flatMap((r) => r.errors.map((e) => `[${e.scenario}] ${e.test}: ${e.message.split('\n')[0]}`));
  const all = [...pools.A, ...pools["A'"]];
  const ids = (all[0]?.metrics ?? []).filter(
    (m): m is typeof m & { kind: 'ratio' | 'time' } => (m.kind === 'ratio' || m.kind === 'time') && !isCovariateMetric(m),
  );
  const valuesOf = (records: readonly RunRecord[], id: string) => records.map((r) => r.metrics.find((m) => m.id === id)?.value ?? Number.NaN);
  const spreads: MetricSpread[] = ids
    .filter((m) => valuesOf(all, m.id).every((v) => v > 0))
    .map((m) => {
      // A metric with a host-state probe is judged adjusted for it (perf:ab): its spread is the adjusted one.
      const covariateId = covariateIdOf(m);
      const adjusted = covariateId
        ? adjustForCovariate(
            { values: valuesOf(pools.A, m.id), covariate: valuesOf(pools.A, covariateId) },
            { values: valuesOf(pools["A'"], m.id), covariate: valuesOf(pools["A'"], covariateId) },
          )
        : null;
      const values = adjusted ? [...adjusted.base, ...adjusted.head] : valuesOf(all, m.id);
      // Same code in every process: the spread about one mean, 2K - 1 degrees of freedom (an
      // offset between A and A', a drift, counts against the tolerance rather than hiding); one
      // more spent on the slope when adjusted.
      const sd = betweenProcessSd(values) * (adjusted ? Math.sqrt((values.length - 1) / (values.length - 2)) : 1);
      const sdUpper = sdUpperBound(sd, values.length - (adjusted ? 2 : 1));
      const covariate = adjusted ? { covariate: { base: valuesOf(pools.A, covariateId!), head: valuesOf(pools["A'"], covariateId!) } } : {};
      const aa = judgeProcesses(
        { id: m.id, kind: m.kind, base: valuesOf(pools.A, m.id), head: valuesOf(pools["A'"], m.id), ...covariate },
        { tolerance: existing[m.id] ?? PLAN.tolerance, alpha: DEFAULT_PROCESS_ALPHA },
      );
      return {
        id: m.id,
        kind: m.kind,
        median: median(valuesOf(all, m.id)),
        sd,
        sdUpper,
        tolerance: smallestTolerance(sdUpper, m.kind),
        aa,
        adjusted: adjusted !== null,
      };
    });
  return { spreads, errors };
}

/** The write phase of the A/A: the table, the tolerances file when asked (never with an error), the exit code. */
async function writeAa(
  options: Pick<OwnCalibrateOptions, 'perArm' | 'scenarios' | 'writeTolerances'>,
  pools: AaPools,
  { spreads, errors }: AaJudged,
  existing: Readonly<Record<string, number>>,
): Promise<number> {
  const all = [...pools.A, ...pools["A'"]];
  const table = new Table({
    head: ['metric', 'kind', 'median', 'between-process SD', '95% upper bound', `smallest tolerance (gtp ab, ${AB_PROCESSES} a side)`, 'A/A verdict'],
    style: { head: [], border: [] },
  });
  for (const s of spreads) {
    table.push([
      s.id,
      s.kind,
      s.median.toPrecision(4),
      `${pct(s.sd)}${s.adjusted ? ' †' : ''}`,
      pct(s.sdUpper),
      pct(s.tolerance),
      `${s.aa.verdict} (${(100 * s.aa.change).toFixed(1)}% at ${pct(s.aa.tolerance)})`,
    ]);
  }
  console.log(
    `\nA/A calibration of ${options.scenarios?.length ? `the scenarios ${options.scenarios.join(', ')}` : "this project's perf files"}: ${all.length} processes (${options.perArm} A + ${options.perArm} A', ABBA order), ${pools.minutes.toFixed(1)} min, measured by gpu-transfer-perf ${pools.harnessVersion ?? '(unknown version)'}.`,
  );
  console.log(
    `Between-process SD of log values over all ${all.length} processes, its 95% upper bound (chi-square), and the smallest tolerance with which \`${commandLine('ab', '--base <ref>')}\` passes an unchanged commit at its first look ${Math.round(100 * PASS_POWER)}% of the time (from the upper bound; alpha ${DEFAULT_PROCESS_ALPHA} per side). A change smaller than its tolerance is not called a regression; one of twice it is.`,
  );
  console.log(table.toString());
  if (spreads.some((s) => s.adjusted))
    console.log(
      "† adjusted for the host-state probe each process measured, as gtp ab judges it (one slope, fitted within A and within A'; one degree of freedom spent on it).",
    );
  for (const e of errors) console.log(`ERROR ${e}`);
  if (spreads.length === 0) console.log('No ratio or time metric was recorded by every process: nothing to calibrate.');
  if (options.writeTolerances && spreads.length > 0 && errors.length === 0) {
    // Never tighter than the kind's default (ratio 10%, time 50%): the calibration loosens where
    // the noise demands it; a tighter gate than the documented default is the user's own choice.
    const written = spreads.map((s) => [s.id, Math.max(s.tolerance, DEFAULT_TOLERANCE[s.kind])] as const);
    await writeJsonAtomic(options.writeTolerances, { ...existing, ...Object.fromEntries(written) });
    console.log(
      `Written: ${options.writeTolerances} (${spreads.length} tolerances, each the larger of the smallest supported one and the default, ratio ${pct(DEFAULT_TOLERANCE.ratio)} and time ${pct(DEFAULT_TOLERANCE.time)}; \`${commandLine('ab')}\` and \`${commandLine('baseline')}\` use them).`,
    );
  } else if (spreads.length > 0) {
    console.log(`Not written: with --write-tolerances, \`${commandLine('calibrate', '--write-tolerances')}\` writes them to baselines/tolerances.json.`);
  }
  return errors.length > 0 || spreads.length === 0 ? EXIT.regression : EXIT.pass;
}
