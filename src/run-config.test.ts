import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalData, FIXTURE_DATA } from './run-config.js';

describe('canonicalData', () => {
  const none = { mnistDir: null, coco: null, kineticsRoot: null };

  it('turns a committed fixture named by its path, however written, into the embedded default', () => {
    const cwd = '/work/project';
    const coco = { root: './fixtures/coco/images/', annotations: join(cwd, FIXTURE_DATA.coco.annotations) };
    expect(canonicalData({ ...none, coco, kineticsRoot: 'fixtures/kinetics/' }, cwd)).toEqual(none);
    expect(canonicalData({ ...none, coco: FIXTURE_DATA.coco, kineticsRoot: FIXTURE_DATA.kineticsRoot }, cwd)).toEqual(none);
  });

  it('keeps other data, and a fixture images folder paired with another JSON', () => {
    const mixed = { mnistDir: 'data/MNIST/raw', coco: { root: FIXTURE_DATA.coco.root, annotations: 'other.json' }, kineticsRoot: 'fixtures/kinetics/val' };
    expect(canonicalData(mixed, '/work/project')).toEqual(mixed);
  });
});
