/**
 * Which way a metric is better (issue 40): every judge and every exporter reads it here, so a
 * ratio where smaller is better (a step's time over the resident step's) is never judged as a speedup.
 */

/** bigger/smaller: better that way; exact: must equal the baseline; info: shown, never judged or alerted on. */
export const DIRECTIONS = ['bigger', 'smaller', 'exact', 'info'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/** What `directionOf` reads: the fields every stored metric has, and the direction where it was declared. */
export interface DirectionInput {
  readonly id: string;
  readonly kind: 'exact' | 'ratio' | 'time' | 'quality';
  readonly unit: string;
  readonly direction?: Direction | undefined;
  readonly labels?: Readonly<Record<string, string>> | undefined;
  readonly bound?: { readonly min?: number | undefined; readonly max?: number | undefined } | undefined;
}

/**
 * Metric ids recorded before directions were declared (schema 4 and older) whose direction is not
 * their kind's: a step time over the resident step's is a ratio where above 1 means the input
 * pipeline costs time (src/train/metrics.ts); the host-state probe, the sync floor, the computed
 * limits, the upload references and the GPU clocks describe the machine, not the code (docs/ci.md,
 * "What the exports hold").
 */
const KNOWN: ReadonlyArray<readonly [RegExp, Direction]> = [
  [/(^|\.)step-time-vs-resident\./, 'smaller'],
  [/\.host-probe$/, 'info'],
  [/\.stage-ms\.sync-floor$/, 'info'],
  [/\.stage-ms\.limit\./, 'info'],
  [/\.upload-reference\./, 'info'],
  [/\.gpu-clock\./, 'info'],
];

/**
 * The direction a metric declared where it was made, or, for a record that predates it, the one
 * its id (KNOWN) or kind implies: a ratio is a speedup (bigger), a time smaller, an exact count
 * exact; a quality is bigger when it is a rate or has only a lower bound, smaller with only an
 * upper bound, else information (a loss, a fraction shown beside the verdicts).
 */
export function directionOf(m: DirectionInput): Direction {
  if (m.direction) return m.direction;
  if (m.labels?.role === 'covariate') return 'info';
  const known = KNOWN.find(([pattern]) => pattern.test(m.id));
  if (known) return known[1];
  return kindDirection(m.kind, m.unit, m.bound);
}

/** The direction a kind implies on its own (a maker's default); see directionOf. */
export function kindDirection(kind: DirectionInput['kind'], unit: string, bound?: DirectionInput['bound']): Direction {
  if (kind === 'ratio') return 'bigger';
  if (kind === 'time') return 'smaller';
  if (kind === 'exact') return 'exact';
  if (unit.endsWith('/s')) return 'bigger';
  const [min, max] = [bound?.min !== undefined, bound?.max !== undefined];
  if (min && !max) return 'bigger';
  if (max && !min) return 'smaller';
  return 'info';
}

/**
 * The sign of "worse" for a change on the value's scale: -1 where a fall is worse (bigger is
 * better), +1 where a rise is; null where no direction is worse (exact, info).
 */
export function worseSign(direction: Direction): -1 | 1 | null {
  return direction === 'bigger' ? -1 : direction === 'smaller' ? 1 : null;
}

/**
 * A relative change of `to` against `from` for human text: 0 -> 0 is 0 (no change), 0 -> x is
 * not a percentage ('from 0'); never NaN or Infinity (issue 40, item 6).
 */
export function relativeChange(from: number, to: number): number | 'from 0' {
  if (from === to) return 0;
  if (from === 0) return 'from 0';
  return to / from - 1;
}
