import { z } from 'zod';
import type { HardwareProfile } from '../backend/profile.js';
import { BACKEND_NAMES } from '../backend/types.js';
import { DIRECTIONS } from './direction.js';

/**
 * Version of the run-record format; bump on any change readers must know about.
 * 2: adds `selection` (partial runs) and `dataset`.
 * 3: metric `labels`; `dataset` becomes `datasets` (one entry per data set); the kernel tables
 *    move from `profiles` to `kernelTables` ("profile" names the hardware profile only).
 *    Version 2 files are read and migrated (src/results/migrate.ts).
 * 4: `skipped` (scenarios not measured for a missing tool, with the reason); a baseline's
 *    `lacks` (scenarios it has no figures for, and why). Version 3 files are read as they are.
 * 5: metric `direction` (bigger, smaller, exact, info), declared where the metric is made; version 4
 *    files get it on read from the metric's kind and a table of known ids (results/direction.ts).
 */
export const SCHEMA_VERSION = 5;

/**
 * How a metric is judged against a baseline (see README, "Reading a run record"):
 * exact must be equal; ratio by its CI; time is informational; quality within a bound.
 */
const METRIC_KINDS = ['exact', 'ratio', 'time', 'quality'] as const;
export type MetricKind = (typeof METRIC_KINDS)[number];

const metricFields = z
  .object({
    /** Dotted id, e.g. 'mnist-transfer.upload-bytes.cpu-normalize'. */
    id: z.string().regex(/^[a-z0-9][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)+$/, 'dotted lower-case id'),
    /** The perf/ file that recorded it (its scenario id), stamped by the reporter. */
    scenario: z.string().min(1),
    /** Structured coordinates of the figure (strategy, dtype, batch, quantity, ...), for grouping. */
    labels: z.record(z.string(), z.string()).optional(),
    kind: z.enum(METRIC_KINDS),
    /** Which way is better; judges and exporters read it through directionOf (absent: from kind and id). */
    direction: z.enum(DIRECTIONS).optional(),
    value: z.number(),
    /** '' for dimensionless values. */
    unit: z.string(),
    /** 95% confidence interval [lo, hi] where the value is an estimate. */
    ci: z.tuple([z.number(), z.number()]).optional(),
    n: z.number().int().positive().optional(),
    /** measured: read off the system; computed: derived from sizes and shapes. */
    source: z.enum(['measured', 'computed']).optional(),
    /** Acceptable range, for quality metrics. */
    bound: z.object({ min: z.number().optional(), max: z.number().optional() }).optional(),
    /** What was measured and how (which clock, which API boundary). */
    detail: z.string().optional(),
    /** Raw paired samples (ms) behind a ratio, kept for re-analysis. */
    samples: z.object({ a: z.array(z.number()), b: z.array(z.number()) }).optional(),
    /** One value per process when the run measured several (`--processes K`): what cross-run verdicts judge. */
    processes: z.array(z.number()).optional(),
  })
  .strict();

/**
 * Floating-point slack of the "CI contains the value" rule: a geometric mean and the bootstrap
 * bounds around it are computed through different sums of logs, so a CI of identical values
 * may miss its value by a few ulps. Far below any real disagreement.
 */
const CI_SLACK = 1e-9;

/**
 * What makes a metric impossible as a measurement, by field; empty when plausible. The kind
 * decides, not the unit: an `exact` metric is a count or a byte size (design: sizes, bytes on
 * the wire, tensor counts, shapes), so a whole number >= 0, while a `quality` metric in B
 * (heap growth) or '' (input-bound fraction, loss change) may be negative. A ratio of two
 * times is > 0. A time is >= 0, not > 0: the kernel stage of cpu-normalize runs no kernel
 * and its GPU timestamp-query time is a true 0 ms (in the committed baseline).
 */
export function metricProblems(m: z.infer<typeof metricFields>): Array<{ field: string; message: string }> {
  const problems: Array<{ field: string; message: string }> = [];
  const say = (field: string, what: string) => problems.push({ field, message: `metric ${m.id} (${m.kind}${m.unit ? `, ${m.unit}` : ''}): ${what}` });
  // One rule per kind for the value and its per-process values and CI bounds: true, or what is wrong.
  const rule = (x: number): true | string => {
    // NaN and ±Infinity are no measurement of any kind (a page's come through as such: results/non-finite.ts).
    if (typeof x !== 'number' || !Number.isFinite(x)) return `a value must be a finite number, got ${x}`;
    if (m.kind === 'exact') return (Number.isInteger(x) && x >= 0) || `a count or byte size must be a whole number >= 0, got ${x}`;
    if (m.kind === 'ratio') return x > 0 || `a ratio of two times must be > 0, got ${x}`;
    if (m.kind === 'time') return x >= 0 || `a time must be >= 0, got ${x}`;
    return true;
  };
  const check = (field: string, values: readonly number[]) => {
    const bad = values.map(rule).find((r) => r !== true);
    if (bad) say(field, bad);
  };
  check('value', [m.value]);
  check('processes', m.processes ?? []);
  if (m.ci) {
    const [lo, hi] = m.ci;
    const slack = CI_SLACK * Math.max(1, Math.abs(m.value));
    if (lo > hi) say('ci', `confidence interval [${lo}, ${hi}] is reversed (lo > hi)`);
    else if (m.value < lo - slack || m.value > hi + slack) say('ci', `confidence interval [${lo}, ${hi}] does not contain the value ${m.value}`);
    else check('ci', m.ci);
  }
  const notFinite = [m.bound?.min, m.bound?.max].find((x) => x !== undefined && !Number.isFinite(x));
  if (notFinite !== undefined) say('bound', `a bound must be a finite number, got ${notFinite}`);
  else if (m.bound?.min !== undefined && m.bound.max !== undefined && m.bound.min > m.bound.max) say('bound', `bound min ${m.bound.min} > max ${m.bound.max}`);
  if (m.samples) {
    if (m.samples.a.length !== m.samples.b.length) say('samples', `paired samples of unequal length (${m.samples.a.length} vs ${m.samples.b.length})`);
    const samples = [...m.samples.a, ...m.samples.b];
    const badSample = samples.find((x) => !Number.isFinite(x));
    const negative = samples.find((x) => x < 0);
    if (badSample !== undefined) say('samples', `a sample time must be a finite number, got ${badSample}`);
    else if (negative !== undefined) say('samples', `a sample time must be >= 0 ms, got ${negative}`);
  }
  return problems;
}

/** Adds each implausible field of a metric as an issue at that field (readers name the metric id). */
function refinePlausible(m: z.infer<typeof metricFields>, ctx: z.RefinementCtx): void {
  for (const p of metricProblems(m)) ctx.addIssue({ code: 'custom', path: [p.field], message: p.message });
}

/** A metric: well-typed (metricFields) and plausible as a measurement (metricProblems). */
export const metricSchema = metricFields.superRefine(refinePlausible);
export type Metric = z.infer<typeof metricSchema>;

/** A metric id recorded twice leaves readers disagreeing on which counts (a Map keeps the last, find() the first): refused, both places named. */
function refineUniqueIds(metrics: ReadonlyArray<{ id: string }>, ctx: z.RefinementCtx): void {
  const first = new Map<string, number>();
  metrics.forEach((m, i) => {
    const seen = first.get(m.id);
    if (seen === undefined) first.set(m.id, i);
    else ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `metric id ${m.id} appears twice (metrics ${seen} and ${i})` });
  });
}

/** The metrics of a record or baseline: `item` each, ids unique. */
export function metricList<T extends z.ZodType<{ id: string }>>(item: T) {
  return z.array(item).superRefine(refineUniqueIds);
}

const adapterSchema = z
  .object({
    vendor: z.string(),
    architecture: z.string(),
    device: z.string(),
    description: z.string(),
    isSoftware: z.boolean(),
    features: z.array(z.string()),
  })
  .strict();

const runProfileSchema = z
  .object({
    id: z.string().min(1),
    backend: z.enum(BACKEND_NAMES),
    backendReason: z.string(),
    adapter: adapterSchema.nullable(),
    isUsingGpuDevice: z.boolean().nullable(),
    cpu: z.object({ model: z.string(), cores: z.number().int().positive() }).strict(),
    os: z.string(),
    node: z.string(),
    versions: z.record(z.string(), z.string()),
    transferBoundary: z.string(),
    /** What this backend can do that the article's advice depends on (e.g. half precision). */
    capabilities: z.record(z.string(), z.object({ supported: z.boolean(), detail: z.string() }).strict()),
  })
  .strict();
export type RunProfile = z.infer<typeof runProfileSchema>;
/** Compiles only while the backend's description (backend/hardware-profile.ts) and the stored profile are one shape, each assignable to the other. */
export type ProfileShapesAgree = AssertTrue<[RunProfile] extends [HardwareProfile] ? ([HardwareProfile] extends [RunProfile] ? true : false) : false>;
type AssertTrue<T extends true> = T;

export type KernelTableRecord = z.infer<typeof kernelTableSchema>;
const kernelTableSchema = z
  .object({
    rows: z.array(z.object({ name: z.string(), calls: z.number().int(), totalMs: z.number(), meanMs: z.number(), percent: z.number() }).strict()),
    kernelCount: z.number().int(),
    totalKernelMs: z.number(),
    step: z.string(),
    timing: z.string(),
  })
  .strict();

/** Noise diagnostics of one measuring process: what else the machine was doing. */
const diagnosticsSchema = z
  .object({
    /** CPU time of the test process (user, system), from process.resourceUsage() in it. */
    cpuUserMs: z.number(),
    cpuSystemMs: z.number(),
    /** Times the scheduler took the CPU away from the test process. */
    involuntaryContextSwitches: z.number(),
    wallMs: z.number(),
    /** Share of CPU time stolen by the hypervisor during the run (/proc/stat), null where unknown. */
    stealFraction: z.number().nullable(),
    /** 1-minute load average at the end of the run. */
    loadAverage: z.number(),
  })
  .strict();
export type Diagnostics = z.infer<typeof diagnosticsSchema>;

const runErrorSchema = z.object({ scenario: z.string(), test: z.string(), message: z.string() }).strict();
export type RunError = z.infer<typeof runErrorSchema>;

/** A scenario not measured, and why in one line ('ffmpeg not found (FFMPEG_PATH or PATH); install ffmpeg to measure it'). */
export const skippedScenarioSchema = z.object({ scenario: z.string().min(1), reason: z.string().min(1) }).strict();
export type SkippedScenario = z.infer<typeof skippedScenarioSchema>;

/** The line a skipped scenario gets on the console and in the reports: 'kinetics: skipped: ffmpeg not found ...'. */
export function skippedLine(s: SkippedScenario): string {
  return `${s.scenario}: skipped: ${s.reason}`;
}

export const runRecordSchema = z
  .object({
    schemaVersion: z.literal(SCHEMA_VERSION),
    createdAt: z.iso.datetime(),
    scale: z.enum(['quick', 'full']),
    /** The scenario files run; null when all were (a partial run cannot become a baseline). */
    selection: z.array(z.string()).nullable(),
    /** What each data set read, by name (mnist, ...); data-dependent metrics compare only on the same data. */
    datasets: z.record(z.string(), z.string()),
    git: z.object({ commit: z.string().nullable(), dirty: z.boolean().nullable() }).strict(),
    profile: runProfileSchema,
    metrics: metricList(metricSchema),
    /** Top-N kernel tables (tf.profile of one step) by scenario id. */
    kernelTables: z.record(z.string(), kernelTableSchema).optional(),
    /** Plain-language caveats every reader should see (software adapter, untested paths). */
    notes: z.array(z.string()),
    /** Noise diagnostics, one entry per measuring process. */
    diagnostics: z.array(diagnosticsSchema).optional(),
    errors: z.array(runErrorSchema),
    /**
     * Scenarios this run did not measure because a tool they need is missing (ffmpeg for
     * Kinetics); their files are absent from `selection`. Absent: none skipped.
     */
    skipped: z.array(skippedScenarioSchema).optional(),
  })
  .strict();
export type RunRecord = z.infer<typeof runRecordSchema>;
