import type { Metric } from '../results/schema.js';

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Formats a number to `digits` significant digits without exponent for everyday magnitudes. */
export function significant(value: number, digits = 3): string {
  if (value === 0 || !Number.isFinite(value)) return String(value);
  const magnitude = Math.abs(value);
  if (magnitude < 1e-3 || magnitude >= 1e9) return value.toExponential(digits - 1);
  return Number(value.toPrecision(digits)).toString();
}

/** A metric's value with its unit: '200,704 B (196.00 KB)', '1.23 ms', '1.85x', '2.4e-7'. */
export function formatValue(metric: Pick<Metric, 'value' | 'unit'>): string {
  const { value, unit } = metric;
  switch (unit) {
    case 'B':
      // The article quotes KB as 1024 bytes (50,176 B = 49.00 KB).
      return `${integer.format(value)} B (${(value / 1024).toFixed(2)} KB)`;
    case 'ms':
      return `${significant(value)} ms`;
    case 'x':
      return `${value.toFixed(2)}x`;
    case '':
      return significant(value, 2);
    default:
      return Number.isInteger(value) ? `${integer.format(value)} ${unit}` : `${significant(value)} ${unit}`;
  }
}

/** '[1.70, 2.00]' for a metric's CI, '' when it has none. */
export function formatCI(metric: Pick<Metric, 'ci' | 'unit'>): string {
  if (!metric.ci) return '';
  const [lo, hi] = metric.ci;
  return metric.unit === 'x' ? `[${lo.toFixed(2)}, ${hi.toFixed(2)}]` : `[${significant(lo)}, ${significant(hi)}]`;
}

/** What a speedup's 95% CI says against 1. */
export type Direction = 'faster' | 'slower' | 'unclear';

/**
 * The one rule every report words a speedup ratio (time A / time B) by, only as far as its CI
 * allows: faster when the whole CI is above 1, slower when below, otherwise (or without a CI)
 * no clear difference.
 */
export function ciDirection(metric: Pick<Metric, 'ci'>): Direction {
  if (metric.ci && metric.ci[0] > 1) return 'faster';
  if (metric.ci && metric.ci[1] < 1) return 'slower';
  return 'unclear';
}

/** Says in words what a speedup ratio (time A / time B) shows, by `ciDirection`. */
export function speedupSentence(metric: Pick<Metric, 'value' | 'ci' | 'n'>, a: string, b: string): string {
  const ci = metric.ci ? ` (95% CI ${metric.ci[0].toFixed(2)}-${metric.ci[1].toFixed(2)}, ${metric.n ?? '?'} pairs)` : '';
  const says: Record<Direction, string> = {
    faster: `${b} is ${metric.value.toFixed(2)}x as fast as ${a}${ci}.`,
    slower: `${b} is SLOWER than ${a}: ${metric.value.toFixed(2)}x${ci}. The article's claim does not hold here.`,
    unclear: `No clear difference between ${b} and ${a}: ${metric.value.toFixed(2)}x${ci}.`,
  };
  return says[ciDirection(metric)];
}
