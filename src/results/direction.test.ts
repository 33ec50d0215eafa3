import { describe, expect, it } from 'vitest';
import { directionOf, kindDirection, relativeChange, worseSign } from './direction.js';

describe('directionOf', () => {
  it('keeps the direction a metric declared', () => {
    expect(directionOf({ id: 'a.speedup', kind: 'ratio', unit: 'x', direction: 'smaller' })).toBe('smaller');
  });
  it('reads an old record by kind, and by the table of known ids where the kind would mislead', () => {
    expect(directionOf({ id: 'mnist-transfer.speedup', kind: 'ratio', unit: 'x' })).toBe('bigger');
    expect(directionOf({ id: 'training.step-time-vs-resident.cpu-normalize', kind: 'ratio', unit: 'x' })).toBe('smaller');
    expect(directionOf({ id: 'mnist-transfer.stages.stage-ms.upload.cpu-normalize', kind: 'time', unit: 'ms' })).toBe('smaller');
    expect(directionOf({ id: 'mnist-transfer.stages.stage-ms.sync-floor', kind: 'time', unit: 'ms' })).toBe('info');
    expect(directionOf({ id: 'mnist-transfer.stages.stage-ms.limit.cpu-normalize', kind: 'time', unit: 'ms' })).toBe('info');
    expect(directionOf({ id: 'mnist-transfer.speedup.host-probe', kind: 'time', unit: 'ms' })).toBe('info');
    expect(directionOf({ id: 'x.probe', kind: 'time', unit: 'ms', labels: { role: 'covariate' } })).toBe('info');
    expect(directionOf({ id: 'mnist-transfer.upload-bytes.x', kind: 'exact', unit: 'B' })).toBe('exact');
  });
  it('reads a quality by its unit and bound', () => {
    expect(kindDirection('quality', 'images/s')).toBe('bigger');
    expect(kindDirection('quality', '', { min: 0.9 })).toBe('bigger');
    expect(kindDirection('quality', '', { max: 1e-6 })).toBe('smaller');
    expect(kindDirection('quality', '', {})).toBe('info');
    expect(kindDirection('quality', '', { min: 0, max: 1 })).toBe('info');
  });
});

describe('worseSign and relativeChange', () => {
  it('says which way is worse', () => {
    expect([worseSign('bigger'), worseSign('smaller'), worseSign('exact'), worseSign('info')]).toEqual([-1, 1, null, null]);
  });
  it('never divides by zero', () => {
    expect(relativeChange(0, 0)).toBe(0);
    expect(relativeChange(0, 3)).toBe('from 0');
    expect(relativeChange(2, 3)).toBeCloseTo(0.5, 12);
  });
});
