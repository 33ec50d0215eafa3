import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HarnessStartError } from './harness-start.js';
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

  it('names the cause when its harness cannot start (a checkout without its perf files), measuring nothing (issue 30)', async () => {
    // As a bisect probe of a commit without perf/: the host ends before its first record.
    const missing = join(dir, 'no-perf-files');
    const host = startMeasureHost(
      process.cwd(),
      ['--dir', missing, '--backend', 'cpu'],
      { ...process.env, PERF_REQUIRE_BACKEND: '' },
      'probe-1 (0123456789ab)',
    );
    try {
      const failed = (await host.measure(join(dir, 'never.json')).catch((e: unknown) => e)) as Error;
      expect(failed).toBeInstanceOf(HarnessStartError);
      expect(failed.message).toMatch(
        new RegExp(`^probe-1 \\(0123456789ab\\): its harness did not start: .*${missing}: no such folder of perf files here .*\\(exit code \\d+\\)$`),
      );
      expect(failed.message).not.toContain('\n');
      // Asked again, the ended host says the same, not "not running".
      await expect(host.measure(join(dir, 'never.json'))).rejects.toThrow(/its harness did not start: .*no such folder of perf files/);
    } finally {
      await host.close();
    }
  }, 60_000);
});
