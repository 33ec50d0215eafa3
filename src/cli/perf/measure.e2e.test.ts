// End to end (vitest.e2e.config.ts): the phase starts real test processes, ~30 s on a 2-core machine.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRecordPath } from '../../results/storage.js';
import { defaultRunConfig } from '../../run-config.js';
import { listScenarios, type ScenarioFile } from '../../runner/scenarios.js';
import { measurePerf } from './measure.js';

/** A perf file that records the process it ran in (as a time, which keeps one value per process); no device work. */
const PID_FILE = `import { it } from 'vitest';
import { recordMetrics, timeMetric } from 'gpu-transfer-perf';
it('pid', async ({ task }) => {
  await recordMetrics(task, timeMetric('phase.pid', process.pid, 1, { detail: 'process.pid of the test process, not a time' }));
});
`;

let dir: string;
let files: ScenarioFile[];
beforeAll(async () => {
  // Inside the project: vitest finds test files below its root only.
  await mkdir('results', { recursive: true });
  dir = await mkdtemp(join(process.cwd(), 'results', 'gtp-perf-measure-'));
  await writeFile(join(dir, '01-pid.perf.ts'), PID_FILE);
  files = listScenarios(process.cwd(), dir);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("perf's measure phase", () => {
  it('runs the plan in its processes, one value each, says what was skipped and names the record by its profile', async () => {
    const config = defaultRunConfig({ backend: 'cpu', requireBackend: null, scale: 'quick' });
    const skipped = [{ scenario: 'kinetics', reason: 'ffmpeg not found' }];
    const measured = await measurePerf({ files, config, processes: 2, verbose: false, skipped, out: null, browser: null });
    expect(measured?.record.errors).toEqual([]);
    expect(measured?.record.skipped).toEqual(skipped);
    const pids = measured?.record.metrics.find((m) => m.id.endsWith('phase.pid'))?.processes ?? [];
    expect(pids).toHaveLength(2);
    expect(new Set([...pids, process.pid]).size).toBe(3);
    expect(measured?.recordPath).toBe(defaultRecordPath(measured!.record));
  }, 180_000);
});
