import type { AbResult } from '../../src/results/ab-result.js';
import type { ProcessVerdict } from '../../src/results/process-verdict.js';

/** A per-process verdict of an A/B for tests: head/base - 1 = `change`, its interval `ci`, at the default 99%. */
export function testProcessVerdict(
  id: string,
  kind: ProcessVerdict['kind'],
  verdict: ProcessVerdict['verdict'],
  base: number,
  change: number,
  ci: [number, number],
): ProcessVerdict {
  return {
    id,
    kind,
    verdict,
    base,
    head: base * (1 + change),
    change,
    ci,
    confidence: 0.99,
    p: verdict === 'regressed' ? 0.002 : 0.4,
    processes: [6, 6],
    tolerance: 0.1,
    reason: `${verdict} <by> "test" & co`,
  };
}

/** An A/B of base `main` and head `work` on the CI profile for tests: a speedup that regressed and a time that passed, unless `verdicts` are given. */
export function testAbResult(overrides: Partial<AbResult> = {}): AbResult {
  return {
    base: 'main',
    head: 'work',
    scenarios: ['speedup'],
    processes: [6, 6],
    verdicts: [
      testProcessVerdict('mnist-transfer.speedup', 'ratio', 'regressed', 0.8, -0.25, [-0.3, -0.2]),
      testProcessVerdict('mnist-transfer.upload-ms.device-normalize', 'time', 'pass', 2, 0.01, [-0.02, 0.04]),
    ],
    errors: [],
    profile: 'webgpu-lavapipe-x64',
    minutes: 1.5,
    exitCode: 1,
    ...overrides,
  };
}
