import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { descendantPids } from '../base/process-tree.js';
import { harnessChromiums } from '../../test/support/chromium.js';
import { measureHostCommand } from '../../test/support/cli.js';
import { HarnessStartError } from './harness-start.js';
import { startMeasureHost } from './measure-host.js';
import { NothingToCompareError } from './nothing-to-compare.js';

/** A perf file that records which process ran it. */
const PID_FILE = (name: string) => `import { it } from 'vitest';
import { exactMetric, recordMetrics } from 'gpu-transfer-perf';
it('${name}', async ({ task }) => {
  await recordMetrics(task, exactMetric('host-test.pid-${name}', process.pid, 'count', 'measured', { detail: 'process.pid of the test process' }));
});
`;

/** A page perf file that records a value drawn once per page load: equal within a launch, new in the next. */
const PAGE_FILE = `import { it } from 'vitest';
import { exactMetric, recordMetrics } from 'gpu-transfer-perf/browser';
const drawn = crypto.getRandomValues(new Uint32Array(1))[0];
it('page', async ({ task }) => {
  await recordMetrics(task, exactMetric('host-test.page-load', drawn, 'count', 'measured', { detail: 'a number drawn once per page load' }));
});
`;

/** This test process's descendants that are harness Chromiums (browser or helper), alive now. */
async function ourChromiums(): Promise<number[]> {
  const mine = new Set(descendantPids());
  return [...(await harnessChromiums())].filter((pid) => mine.has(pid));
}

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

  /** A browser host of this checkout measuring one perf file of the test's own (`text`) in folder `name`. */
  async function browserHost(name: string, text: string, label: string) {
    const folder = join(dir, name);
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, '01-page.perf.ts'), text);
    const env = { ...process.env, PERF_REQUIRE_BACKEND: '', PERF_REQUIRE_BASELINE: '' };
    return startMeasureHost(process.cwd(), ['--dir', folder, '--browser', 'chromium', '--backend', 'webgpu'], env, label, measureHostCommand());
  }

  it('in a browser: one Chromium launch per request on its one server, closed when the record is taken (ab --browser)', async () => {
    const host = await browserHost('page', PAGE_FILE, 'this checkout');
    try {
      const drawn: Array<number | undefined> = [];
      for (const name of ['first', 'second']) {
        const record = await host.measure(join(dir, `${name}.json`));
        expect(record.errors).toEqual([]);
        expect(record.profile.id).toMatch(/^webgpu-chromium-\d+-/);
        drawn.push(record.metrics.find((m) => m.id === 'host-test.page-load')?.value);
        // No browser of this host idles between requests (in an A/B the other arm measures then).
        expect(await ourChromiums(), `${name}: Chromium left running after its record`).toEqual([]);
      }
      expect(drawn[0]).toBeGreaterThan(0);
      expect(drawn[1]).not.toBe(drawn[0]);
    } finally {
      await host.close();
    }
    expect(host.child.exitCode).toBe(0);
    expect(await ourChromiums()).toEqual([]);
  }, 120_000);

  it('in a browser: a launch that measured nothing (a perf file that does not parse) is nothing to compare, with its cause, exit 3', async () => {
    const host = await browserHost('broken', "import { it } from 'vitest';\nit('x', () => {\n  const = 1;\n});\n", 'HEAD~1 (0123456789ab)');
    try {
      const failed = (await host.measure(join(dir, 'none.json')).catch((e: unknown) => e)) as Error;
      expect(failed).toBeInstanceOf(NothingToCompareError);
      expect(failed.message).toMatch(/^HEAD~1 \(0123456789ab\): nothing was measured there: .*broken\/01-page\.perf\.ts/);
      expect(failed.message).not.toContain('\n');
    } finally {
      await host.close();
    }
    expect(await ourChromiums()).toEqual([]);
  }, 120_000);
});
