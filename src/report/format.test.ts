import { describe, expect, it } from 'vitest';
import { formatCI, formatValue, speedupSentence } from './format.js';

describe('formatting figures', () => {
  it('shows bytes exactly and in the article KB', () => {
    expect(formatValue({ value: 50_176, unit: 'B' })).toBe('50,176 B (49.00 KB)');
    expect(formatValue({ value: 200_704, unit: 'B' })).toBe('200,704 B (196.00 KB)');
  });

  it('shows times, ratios and tiny differences readably', () => {
    expect(formatValue({ value: 1.23456, unit: 'ms' })).toBe('1.23 ms');
    expect(formatValue({ value: 1.8512, unit: 'x' })).toBe('1.85x');
    expect(formatValue({ value: 2.384e-7, unit: '' })).toBe('2.4e-7');
    expect(formatCI({ ci: [1.7, 2.004], unit: 'x' })).toBe('[1.70, 2.00]');
    expect(formatCI({ unit: 'x' })).toBe('');
  });

  it('states a speedup only as far as its CI allows', () => {
    const a = 'cpu-normalize';
    const b = 'device-normalize';
    expect(speedupSentence({ value: 1.9, ci: [1.7, 2.1], n: 30 }, a, b)).toMatch(/^device-normalize is 1.90x as fast/);
    expect(speedupSentence({ value: 0.8, ci: [0.7, 0.9], n: 30 }, a, b)).toMatch(/SLOWER.*does not hold/);
    expect(speedupSentence({ value: 1.05, ci: [0.9, 1.2], n: 30 }, a, b)).toMatch(/^No clear difference/);
  });
});
