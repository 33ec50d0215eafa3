import { describe, expect, it } from 'vitest';
import { abbaOrder } from './ab.js';

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
