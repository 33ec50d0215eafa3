import { describe, expect, it } from 'vitest';
import { parsePerfArgs, UsageError } from './args.js';

describe('perf command line', () => {
  it('defaults to auto backend, quick scale, all scenarios', () => {
    expect(parsePerfArgs([], {})).toEqual({
      command: 'perf',
      help: false,
      backend: 'auto',
      requireBackend: null,
      scale: 'quick',
      out: null,
      scenarios: [],
      mnistDir: null,
    });
  });

  it('reads flags, repeatable scenarios, and PERF_BACKEND when no flag is given', () => {
    const args = parsePerfArgs(['perf', '--backend', 'wasm', '--scale', 'full', '--scenario', 'speedup', '--scenario', '9', '--out', 'r.json'], {});
    expect(args).toMatchObject({ backend: 'wasm', scale: 'full', scenarios: ['speedup', '9'], out: 'r.json' });
    expect(parsePerfArgs([], { PERF_BACKEND: 'cpu' }).backend).toBe('cpu');
    expect(parsePerfArgs(['--backend', 'webgpu'], { PERF_BACKEND: 'cpu' }).backend).toBe('webgpu');
    expect(parsePerfArgs(['doctor'], { PERF_REQUIRE_BACKEND: 'webgpu' })).toMatchObject({ command: 'doctor', requireBackend: 'webgpu' });
  });

  it('rejects unknown flags, bad values and stray arguments with a UsageError', () => {
    expect(() => parsePerfArgs(['--fast'], {})).toThrow(UsageError);
    expect(() => parsePerfArgs(['--backend', 'cuda'], {})).toThrow(/--backend must be one of auto\|webgpu\|wasm\|cpu\|tensorflow, got 'cuda'/);
    expect(() => parsePerfArgs(['--scale', 'huge'], {})).toThrow(/--scale must be one of quick\|full/);
    expect(() => parsePerfArgs(['--backend'], {})).toThrow(UsageError);
    expect(() => parsePerfArgs(['perf', 'extra'], {})).toThrow(/unexpected arguments: extra/);
    expect(() => parsePerfArgs(['bench'], {})).toThrow(/command must be one of perf\|doctor/);
    expect(() => parsePerfArgs([], { PERF_BACKEND: 'gpu' })).toThrow(/got 'gpu'/);
  });
});
