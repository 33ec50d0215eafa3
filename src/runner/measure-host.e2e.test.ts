import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMeasureHost } from './measure-host.js';

/** A perf file that records which process ran it. */
const PID_FILE = (name: string) => `import { it } from 'vitest';
import { exactMetric, recordMetrics } from 'gpu-transfer-perf';
it('${name}', async ({ task }) => {
  await recordMetrics(task, exactMetric('host-test.pid-${name}', process.pid, 'count', 'measured', { detail: 'process.pid of the test process' }));
});
`;

describe('measure host', () => {
  let dir: string;
  beforeAll(async () => {
    // Inside the project: vitest finds test files below its root only.
    await mkdir('results', { recursive: true });
    dir = await mkdtemp(join(process.cwd(), 'results', 'gtp-host-'));
    await writeFile(join(dir, '01-a.perf.ts'), PID_FILE('a'));
    await writeFile(join(dir, '02-b.perf.ts'), PID_FILE('b'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('runs all files of a request in one new process, and each request in another', async () => {
    const host = startMeasureHost(
      process.cwd(),
      ['--dir', dir, '--backend', 'cpu'],
      { ...process.env, PERF_REQUIRE_BACKEND: '', PERF_REQUIRE_BASELINE: '' },
      'this checkout',
    );
    try {
      const runs = [await host.measure(join(dir, 'first.json')), await host.measure(join(dir, 'second.json'))];
      expect(runs.map((r) => r.errors)).toEqual([[], []]);
      const pids = runs.map((r) => ['pid-a', 'pid-b'].map((id) => r.metrics.find((m) => m.id.endsWith(id))?.value));
      expect(pids[0]![0]).toBeGreaterThan(0);
      expect(pids[0]![1]).toBe(pids[0]![0]);
      expect(pids[1]![1]).toBe(pids[1]![0]);
      expect(pids[1]![0]).not.toBe(pids[0]![0]);
      expect(pids.flat()).not.toContain(process.pid);
    } finally {
      await host.close();
    }
    expect(host.child.exitCode).toBe(0);
  }, 120_000);
});
