import { describe, expect, it } from 'vitest';
import { assembleRunRecord, type CollectedTest, scenariosSkippedByTests } from './assemble.js';
import type { MetricInput } from './metrics.js';
import { testRunRecord } from '../../test/support/run-record.js';

const profile = testRunRecord([]).profile;
const run = {
  profile,
  createdAt: '2026-12-03T10:00:00.000Z',
  scale: 'quick' as const,
  selection: null,
  datasets: {},
  git: { commit: 'abc', dirty: false },
  unhandledErrors: [],
};
const test = (metrics: MetricInput[]): CollectedTest => ({
  scenario: 'memory',
  name: 'counts bytes',
  state: 'passed',
  errors: [],
  perf: { metrics, kernelTables: {} },
});

describe('assembleRunRecord', () => {
  it('keeps plausible metrics and turns an impossible one into an error of its test, not a refused record', () => {
    const record = assembleRunRecord(
      [
        test([
          { id: 'memory.bytes', kind: 'exact', value: 50_176, unit: 'B' },
          { id: 'memory.bad-bytes', kind: 'exact', value: -4, unit: 'B' },
          { id: 'memory.bytes', kind: 'exact', value: 1, unit: 'B' },
        ]),
      ],
      run,
    );
    expect(record?.metrics.map((m) => m.id)).toEqual(['memory.bytes']);
    expect(record?.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/metric memory.bad-bytes .*whole number >= 0, got -4; not recorded/),
      'metric memory.bytes recorded twice; kept the first',
    ]);
  });

  it('files a failed test under its scenario, with its messages joined (or "failed"), and errors outside any test under (run)', () => {
    const failed = (errors: string[]): CollectedTest => ({ scenario: 'speedup', name: 'times', state: 'failed', errors });
    const skipped: CollectedTest = { scenario: 'speedup', name: 'skips', state: 'skipped', errors: ['not an error'] };
    const record = assembleRunRecord([failed(['a', 'b']), failed([]), skipped], { ...run, unhandledErrors: ['cannot load perf/x.perf.ts'] });
    expect(record?.errors).toEqual([
      { scenario: 'speedup', test: 'times', message: 'a\nb' },
      { scenario: 'speedup', test: 'times', message: 'failed' },
      { scenario: '(run)', test: '(outside any test)', message: 'cannot load perf/x.perf.ts' },
    ]);
  });

  it('stamps each metric with its test scenario and merges the kernel tables of all tests', () => {
    const table = { rows: [], kernelCount: 0, totalKernelMs: 0, step: 'one step', timing: 'tf.profile' };
    const record = assembleRunRecord(
      [
        { ...test([]), perf: { metrics: [{ id: 'memory.bytes', kind: 'exact', value: 1, unit: 'B' }], kernelTables: { memory: table } } },
        { ...test([]), scenario: 'train', perf: { metrics: [{ id: 'train.loss', kind: 'quality', value: -0.5, unit: '' }], kernelTables: { train: table } } },
      ],
      run,
    );
    expect(record?.metrics.map((m) => [m.id, m.scenario])).toEqual([
      ['memory.bytes', 'memory'],
      ['train.loss', 'train'],
    ]);
    expect(Object.keys(record?.kernelTables ?? {})).toEqual(['memory', 'train']);
  });

  it('copies the run context (selection, data sets, git) and keeps the diagnostics as one process entry only when given', () => {
    const diagnostics = { cpuUserMs: 1, cpuSystemMs: 2, involuntaryContextSwitches: 3, wallMs: 4, stealFraction: null, loadAverage: 0.5 };
    const selection = ['perf/06-speedup.perf.ts'];
    const record = assembleRunRecord([], { ...run, selection, datasets: { mnist: 'idx' }, diagnostics });
    expect(record).toMatchObject({ selection, datasets: { mnist: 'idx' }, git: run.git, createdAt: run.createdAt, scale: 'quick', diagnostics: [diagnostics] });
    expect(record?.selection).not.toBe(selection);
    expect(assembleRunRecord([], run)).not.toHaveProperty('diagnostics');
  });

  it('writes the caveats of the profile: software adapter, webgpu not exercised, tensorflow on the CPU device or an unverified GPU', () => {
    const notes = (p: Partial<typeof profile>) => assembleRunRecord([], { ...run, profile: { ...profile, ...p } })!.notes;
    expect(notes({})).toEqual([
      "The tensorflow backend (TensorFlow's C library through tfjs-node) was not exercised in this run: `--backend tensorflow` after `npm run setup:tensorflow`.",
    ]);
    const lavapipe = { vendor: 'mesa', architecture: '', device: '', description: 'llvmpipe', isSoftware: true, features: [] };
    expect(notes({ adapter: lavapipe })[0]).toMatch(/^The WebGPU adapter is a software rasterizer \(llvmpipe\)/);
    // In a browser: Chromium's WebGPU adapter has no description (named by what it is), and WebGL says WebGL.
    const swiftshader = { vendor: 'google', architecture: 'swiftshader', device: '', description: '', isSoftware: true, features: [] };
    expect(notes({ adapter: swiftshader })[0]).toMatch(/^The WebGPU adapter is a software rasterizer \(swiftshader\): a real device that renders on the CPU/);
    expect(notes({ backend: 'webgl', backendReason: 'asked for', adapter: { ...swiftshader, description: 'WebGL 2.0 (ANGLE SwiftShader)' } })[0]).toMatch(
      /^The WebGL adapter is a software rasterizer \(WebGL 2\.0 \(ANGLE SwiftShader\)\)/,
    );
    expect(notes({ backend: 'wasm', backendReason: 'no adapter' })).toEqual([
      'webgpu was NOT exercised: no adapter.',
      "The tensorflow backend (TensorFlow's C library through tfjs-node) was not exercised in this run: `--backend tensorflow` after `npm run setup:tensorflow`.",
    ]);
    const versions = { ...profile.versions, tensorflow: '2.21.0' };
    const tf = notes({ backend: 'tensorflow', backendReason: 'asked for', isUsingGpuDevice: false, versions });
    expect(tf).toHaveLength(2);
    expect(tf[1]).toMatch(
      /^TensorFlow 2\.21\.0 ran on the CPU device \(isUsingGpuDevice false\): "host->device" is host memory to host memory through the binding, not PCIe/,
    );
    const gpu = notes({ backend: 'tensorflow', backendReason: 'asked for', isUsingGpuDevice: true, versions });
    expect(gpu).toHaveLength(2);
    expect(gpu[1]).toMatch(/^TensorFlow 2\.21\.0 ran on a CUDA GPU \(tfjs-node-gpu\): a route this project has never built or run itself/);
  });

  it('is null when no test reached a backend', () => {
    expect(assembleRunRecord([test([])], { ...run, profile: null })).toBeNull();
  });
});

describe('scenariosSkippedByTests', () => {
  const test = (scenario: string, state: CollectedTest['state'], note?: string): CollectedTest => ({
    scenario,
    name: `${scenario} ${state}`,
    state,
    errors: [],
    note,
  });

  it('names a scenario whose every test was skipped, with the note one of them gave', () => {
    const why = 'the browser decodes none of the 4 videos: MEDIA_ERR_SRC_NOT_SUPPORTED';
    expect(scenariosSkippedByTests([test('kinetics', 'skipped', why), test('kinetics', 'skipped'), test('coco', 'passed')])).toEqual([
      { scenario: 'kinetics', reason: why },
    ]);
  });

  it('names none where a test of the scenario ran, or where no skipped test said why (skip flags, .only elsewhere)', () => {
    expect(scenariosSkippedByTests([test('kinetics', 'skipped', 'why'), test('kinetics', 'passed')])).toEqual([]);
    expect(scenariosSkippedByTests([test('kinetics', 'skipped', 'why'), test('kinetics', 'failed')])).toEqual([]);
    expect(scenariosSkippedByTests([test('coco', 'skipped'), test('coco', 'skipped')])).toEqual([]);
  });
});
