import type { PairedSamples } from '../measure/paired.js';
import { type GpuClocks, gpuClocksDetail } from '../measure/gpu-clocks-detail.js';
import { HOST_PROBE_ELEMENTS } from '../measure/host-probe.js';
import { estimateSpeedup } from '../measure/paired.js';
import { median } from '../measure/statistics.js';
import { COVARIATE_LABEL } from './covariate.js';
import { type Direction, kindDirection } from './direction.js';
import type { Metric } from './schema.js';

/** A metric as a scenario records it; the reporter stamps the scenario from the perf file's name. */
export type MetricInput = Omit<Metric, 'scenario'>;

/** Structured coordinates of a figure: strategy, dtype, batch, quantity, ... */
export type Labels = Readonly<Record<string, string>>;

interface Common {
  /** What was measured and how (which clock, which API boundary). */
  readonly detail: string;
  readonly labels?: Labels;
  /** Which way is better, where the kind alone would say it wrong (a ratio of times where smaller is better); else the kind's. */
  readonly direction?: Direction;
}

const labelled = (labels: Labels | undefined) => (labels ? { labels: { ...labels } } : {});

/** An exact count (bytes, tensors, batches): judged for equality, no tolerance. */
export function exactMetric(id: string, value: number, unit: string, source: NonNullable<Metric['source']>, c: Common): MetricInput {
  return { id, kind: 'exact', direction: 'exact', value, unit, source, detail: c.detail, ...labelled(c.labels) };
}

/** Exact bytes, measured at an API boundary or computed from sizes. */
export function bytesMetric(id: string, bytes: number, source: NonNullable<Metric['source']>, c: Common): MetricInput {
  return exactMetric(id, bytes, 'B', source, c);
}

/** A median time in ms over n samples (informational across processes). */
export function timeMetric(id: string, ms: number, n: number, c: Common): MetricInput {
  return { id, kind: 'time', direction: c.direction ?? 'smaller', value: ms, unit: 'ms', n, source: 'measured', detail: c.detail, ...labelled(c.labels) };
}

/** The id of the host-state probe's metric of `of`: a ratio, or a group of ratios sampled in the same rounds. */
export const hostProbeId = (of: string) => `${of}.host-probe`;

/**
 * The host-state probe timed before each pair (or round) of `of` (samplePairs' `probe`), as its
 * median: a covariate (labels.role), information in a run, never judged. A ratio names it in
 * labels.covariate (ratioFromPairs does so itself for pairs sampled with the probe), and its
 * cross-process verdicts are adjusted for it (results/covariate.ts).
 */
export function hostProbeMetric(of: string, probe: readonly number[], clocks?: Readonly<Record<'before' | 'after', GpuClocks>>): MetricInput {
  // The GPU's clocks beside it, where read (issue 35): said here even when unavailable, so a record tells "not readable" from "not asked".
  const gpu = clocks ? `; ${gpuClocksDetail(clocks)}` : '';
  return timeMetric(hostProbeId(of), median(probe), probe.length, {
    detail: `median of the host-state probe (a fixed ${HOST_PROBE_ELEMENTS}-element table loop on the host, no device) timed before each pair of ${of}; the state of the host the pairs ran in; performance.now()${gpu}`,
    labels: { role: 'covariate', of },
    direction: 'info',
  });
}

/** A quality figure that must lie within a bound (max abs difference, accuracy). */
export function qualityMetric(id: string, value: number, bound: NonNullable<Metric['bound']>, c: Common & { unit?: string }): MetricInput {
  const unit = c.unit ?? '';
  return {
    id,
    kind: 'quality',
    direction: c.direction ?? kindDirection('quality', unit, bound),
    value,
    unit,
    bound,
    source: 'measured',
    detail: c.detail,
    ...labelled(c.labels),
  };
}

/**
 * A `ratio` from interleaved pairs: median of time(a)/time(b) with its 95% bootstrap CI; above 1
 * means b was faster. Keeps the paired samples for re-analysis and pooling.
 */
export function ratioFromPairs(id: string, samples: PairedSamples, c: Common): MetricInput {
  const speedup = estimateSpeedup(samples);
  // Pairs sampled with the host-state probe name its metric (hostProbeMetric), which adjusts this one's verdicts.
  const labels = samples.probe ? { ...c.labels, [COVARIATE_LABEL]: hostProbeId(id) } : c.labels;
  return {
    id,
    kind: 'ratio',
    direction: c.direction ?? 'bigger',
    value: speedup.ratio.estimate,
    unit: 'x',
    ci: [speedup.ratio.lo, speedup.ratio.hi],
    n: speedup.pairs,
    source: 'measured',
    detail: c.detail,
    ...labelled(labels),
    samples: { a: [...samples.a], b: [...samples.b] },
  };
}

/**
 * Re-judges a ratio on the paired samples of two measurements pooled together: the
 * re-measurement a suspected regression gets before it is reported. The detail says so.
 */
export function poolRatioMetric(first: Metric, second: Metric): Metric {
  if (!first.samples || !second.samples) throw new Error(`metric ${first.id} carries no paired samples to pool`);
  const samples = { a: [...first.samples.a, ...second.samples.a], b: [...first.samples.b, ...second.samples.b] };
  const pooled = ratioFromPairs(first.id, samples, {
    detail: `${first.detail ?? ''} [re-measured once after a suspected regression; judged on ${samples.a.length} pooled pairs: first ${first.value.toFixed(3)}, second ${second.value.toFixed(3)}]`,
    ...(first.labels ? { labels: first.labels } : {}),
    ...(first.direction ? { direction: first.direction } : {}),
  });
  return { ...first, ...pooled };
}
