import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cocoSource } from './data/coco/source.js';
import { kineticsSource } from './data/kinetics/source.js';
import { canonicalData, defaultRunConfig, type RunConfig } from './run-config.js';

describe('canonicalData', () => {
  const none = { mnist: null, coco: null, kinetics: null };

  it('turns a committed fixture named by its path, however written, into the embedded default', () => {
    const cwd = '/work/project';
    const coco = { root: './fixtures/coco/images/', annotations: join(cwd, cocoSource.fixture.annotations) };
    expect(canonicalData({ ...none, coco, kinetics: 'fixtures/kinetics/' }, cwd)).toEqual(none);
    expect(canonicalData({ ...none, coco: cocoSource.fixture, kinetics: kineticsSource.fixture }, cwd)).toEqual(none);
  });

  it('keeps other data, and a fixture images folder paired with another JSON', () => {
    const mixed = { mnist: 'data/MNIST/raw', coco: { root: cocoSource.fixture.root, annotations: 'other.json' }, kinetics: 'fixtures/kinetics/val' };
    expect(canonicalData(mixed, '/work/project')).toEqual(mixed);
  });
});

describe('RunConfig', () => {
  it('survives the trip to the test process (vitest provide serializes it), the video tools with it', () => {
    const config: RunConfig = {
      ...defaultRunConfig({ backend: 'cpu', requireBackend: null, scale: 'quick' }),
      videoTools: { ffmpeg: '/opt/ffmpeg', ffprobe: null },
    };
    expect(structuredClone(config)).toEqual(config);
    expect(JSON.parse(JSON.stringify(config))).toEqual(config);
  });
});
