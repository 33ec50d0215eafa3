import type { Rng } from '../base/random.js';
import { median, quantileSorted, sortSamples } from '../measure/statistics.js';
import type { MetricKind } from '../results/schema.js';
import type { HistoryEntry } from './store.js';
import { eDivisive, segmentsOf, type EDivisiveParams } from './edivisive.js';

/** One point of a metric's history: the record it came from and the metric's value there. */
export interface SeriesPoint {
  readonly commit: string | null;
  readonly dirty: boolean | null;
  readonly createdAt: string;
  readonly value: number;
  readonly ci: readonly [number, number] | null;
  readonly path: string;
}

/** A metric's values over the history, oldest first. */
export interface Series {
  readonly id: string;
  readonly kind: MetricKind;
  readonly unit: string;
  readonly points: readonly SeriesPoint[];
}

/** A detected change: the series moves between points[index - 1] and points[index]. */
export interface ChangePoint {
  readonly index: number;
  /** The last commit before the change and the first after it. */
  readonly before: string | null;
  readonly after: string | null;
  /** median(after segment) / median(before segment), for a ratio; after / before for an exact metric. */
  readonly step: number;
  /** 95% bootstrap interval of `step` (ratio metrics); null for exact metrics (no noise). */
  readonly stepCi: readonly [number, number] | null;
  /** Permutation p (ratio metrics); null for exact metrics (any change is one). */
  readonly p: number | null;
  /** Points in the segments on either side that the step compares. */
  readonly nBefore: number;
  readonly nAfter: number;
}

/** Resamples of the step's bootstrap interval. */
export const STEP_RESAMPLES = 2000;

/** Every metric's series over the entries (oldest first), by metric id; a record without the metric adds no point. */
export function seriesOf(entries: readonly HistoryEntry[]): Map<string, Series> {
  const out = new Map<string, { id: string; kind: MetricKind; unit: string; points: SeriesPoint[] }>();
  for (const { path, record } of entries) {
    for (const m of record.metrics) {
      let s = out.get(m.id);
      if (!s) {
        s = { id: m.id, kind: m.kind, unit: m.unit, points: [] };
        out.set(m.id, s);
      }
      s.points.push({ commit: record.git.commit, dirty: record.git.dirty, createdAt: record.createdAt, value: m.value, ci: m.ci ?? null, path });
    }
  }
  return out;
}

/** Percentile bootstrap 95% interval of median(b) / median(a), each segment resampled on its own (Efron & Tibshirani 1993, ch. 13). */
export function medianRatioInterval(a: readonly number[], b: readonly number[], rng: Rng, resamples = STEP_RESAMPLES): [number, number] {
  if (a.length === 0 || b.length === 0) throw new RangeError('medianRatioInterval: both segments need points');
  const ratios = new Array<number>(resamples);
  const ra = new Array<number>(a.length);
  const rb = new Array<number>(b.length);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < a.length; i++) ra[i] = a[rng.int(a.length)]!;
    for (let i = 0; i < b.length; i++) rb[i] = b[rng.int(b.length)]!;
    ratios[r] = median(rb) / median(ra);
  }
  const sorted = sortSamples(ratios);
  return [quantileSorted(sorted, 0.025), quantileSorted(sorted, 0.975)];
}

/** The commits on both sides of a change at `index` of `points`. */
const sides = (points: readonly SeriesPoint[], index: number) => ({ before: points[index - 1]!.commit, after: points[index]!.commit });

/** Exact metrics: every index where the value differs from the one before is a change point (no statistics: exact values have no noise). */
export function exactChangePoints(points: readonly SeriesPoint[]): ChangePoint[] {
  const out: ChangePoint[] = [];
  for (let i = 1; i < points.length; i++) {
    if (points[i]!.value === points[i - 1]!.value) continue;
    const before = points[i - 1]!.value;
    out.push({
      ...sides(points, i),
      index: i,
      step: before === 0 ? Number.POSITIVE_INFINITY : points[i]!.value / before,
      stepCi: null,
      p: null,
      nBefore: 1,
      nAfter: 1,
    });
  }
  return out;
}

/**
 * Ratio metrics: E-Divisive means (see edivisive.ts) over the log values (a ratio's noise is
 * multiplicative, so a 10% step is the same distance at 0.7x and at 2x); each change point
 * reported with the median ratio of the segments on its two sides (bounded by the neighbouring
 * change points) and its bootstrap interval. In series order.
 */
export function ratioChangePoints(points: readonly SeriesPoint[], params: EDivisiveParams, rng: Rng): ChangePoint[] {
  const values = points.map((p) => p.value);
  const found = eDivisive(values.map(Math.log), params, rng).sort((a, b) => a.index - b.index);
  const segments = segmentsOf(
    values.length,
    found.map((c) => c.index),
  );
  return found.map((c, k) => {
    const left = values.slice(segments[k]![0], segments[k]![1]);
    const right = values.slice(segments[k + 1]![0], segments[k + 1]![1]);
    return {
      ...sides(points, c.index),
      index: c.index,
      step: median(right) / median(left),
      stepCi: medianRatioInterval(left, right, rng),
      p: c.p,
      nBefore: left.length,
      nAfter: right.length,
    };
  });
}

/** The change points of a series by its kind: ratio (E-Divisive), exact (any change); none for time and quality metrics (informational here). */
export function changePointsOf(series: Series, params: EDivisiveParams, rng: Rng): ChangePoint[] | null {
  if (series.kind === 'exact') return exactChangePoints(series.points);
  if (series.kind === 'ratio') return ratioChangePoints(series.points, params, rng);
  return null;
}
