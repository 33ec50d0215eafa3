import { describe, expect, it } from 'vitest';
import { abbaOrder, abMeasureOptions } from './ab.js';
import { RunInputError } from './perf.js';

describe('abbaOrder', () => {
  it('alternates which arm goes first, pair by pair (ABBA...)', () => {
    expect(abbaOrder(4)).toEqual([
      ['base', 'head'],
      ['head', 'base'],
      ['base', 'head'],
      ['head', 'base'],
    ]);
  });

  it('runs each arm once per pair, and as often first as second over an even number of pairs', () => {
    const order = abbaOrder(8);
    expect(order.every((pair) => new Set(pair).size === 2)).toBe(true);
    expect(order.filter(([first]) => first === 'base')).toHaveLength(4);
    expect(abbaOrder(0)).toEqual([]);
  });
});

describe('abMeasureOptions', () => {
  const flags = { scenarios: [] as string[], processes: 8, backend: 'auto' as const, ratiosOnly: false };
  it('defaults to the speedup and dtypes scenarios and judges ratios and times; --ratios-only ratios alone', () => {
    expect(abMeasureOptions(flags)).toEqual({ scenarios: ['speedup', 'dtypes'], processes: 8, backend: 'auto', kinds: ['ratio', 'time'] });
    expect(abMeasureOptions({ ...flags, scenarios: ['memory'], ratiosOnly: true })).toMatchObject({ scenarios: ['memory'], kinds: ['ratio'] });
  });
  it('refuses an unknown scenario before any checkout', () => {
    expect(() => abMeasureOptions({ ...flags, scenarios: ['no-such-scenario'] })).toThrow(RunInputError);
  });
  it('refuses fewer processes a side than can decide at the first look (6 at alpha 0.005), one included', () => {
    for (const processes of [1, 2, 5]) {
      expect(() => abMeasureOptions({ ...flags, processes })).toThrow(/cannot reach p < 0\.005 .*use --processes 6 or more \(8 recommended\)$/);
    }
    expect(abMeasureOptions({ ...flags, processes: 6 }).processes).toBe(6);
  });
});
