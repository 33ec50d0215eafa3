import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { testRunRecord } from '../../../test/support/run-record.js';
import { readRunRecord } from '../../results/storage.js';
import { perfExitCode, writePerf } from './write.js';
import { tempFolder } from '../../../test/support/temp-folder.js';

const temp = tempFolder('gtp-perf-write-');

const plan = { exports: {}, jobSummary: null, verbose: false, history: null, requireBaseline: false, color: false };
const exact = { id: 'memory.bytes', scenario: 'memory', kind: 'exact' as const, value: 8, unit: 'B' };

/** Runs `work` with the console's lines collected, stdout's and stderr's apart. */
async function quietly<T>(work: () => Promise<T>): Promise<{ value: T; out: string; err: string }> {
  const out = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    const value = await work();
    const text = (spy: typeof out) => spy.mock.calls.map((c) => c.join(' ')).join('\n');
    return { value, out: text(out), err: text(err) };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe("perf's exit code", () => {
  it('is the worst of the run failing (1) and the verdicts; no baseline is 3 only when one is required', () => {
    expect(perfExitCode({ failed: false, comparison: null, requireBaseline: false })).toBe(0);
    expect(perfExitCode({ failed: true, comparison: null, requireBaseline: false })).toBe(1);
    expect(perfExitCode({ failed: false, comparison: null, requireBaseline: true })).toBe(3);
    expect(perfExitCode({ failed: true, comparison: null, requireBaseline: true })).toBe(3);
    expect(perfExitCode({ failed: false, comparison: { exitCode: 0 }, requireBaseline: true })).toBe(0);
    expect(perfExitCode({ failed: true, comparison: { exitCode: 0 }, requireBaseline: false })).toBe(1);
    expect(perfExitCode({ failed: false, comparison: { exitCode: 3 }, requireBaseline: false })).toBe(3);
  });
});

describe("perf's write phase", () => {
  it('writes the record, its HTML report and the history entry, says there is no baseline, and exits 0', async () => {
    const recordPath = temp.at('run.json');
    const history = await mkdtemp(temp.at('history-'));
    const record = testRunRecord([exact]);
    const { value, out } = await quietly(() =>
      writePerf({ ...plan, history }, { record, recordPath, comparison: null, baselinePath: temp.at('baselines/p.json') }),
    );
    expect(value).toBe(0);
    expect((await readRunRecord(recordPath)).metrics).toEqual([exact]);
    expect(await readdir(temp.path)).toContain('run.html');
    expect(await readdir(join(history, record.profile.id))).toHaveLength(1);
    expect(out).toContain(`Report: ${temp.at('run.html')}`);
    expect(out).toContain(`No baseline for profile ${record.profile.id} (quick scale) at ${temp.at('baselines/p.json')}`);
    expect(out).toMatch(/Exit 0\.$/);
  });

  it('with a baseline required and none found exits 3; a failed scenario exits 1', async () => {
    const judged = { record: testRunRecord([exact]), recordPath: temp.at('required.json'), comparison: null, baselinePath: 'b.json' };
    expect((await quietly(() => writePerf({ ...plan, requireBaseline: true }, judged))).value).toBe(3);
    const failed = { ...judged, record: testRunRecord([], { errors: [{ scenario: 'memory', test: 'bytes', message: 'boom' }] }) };
    expect((await quietly(() => writePerf(plan, failed))).value).toBe(1);
  });

  it('a record that cannot go where asked is kept in the temp folder, said on stderr, and fails the run', async () => {
    const blocked = temp.at('a-file');
    await writeFile(blocked, '');
    const { value, err } = await quietly(() =>
      writePerf(plan, { record: testRunRecord([exact]), recordPath: join(blocked, 'run.json'), comparison: null, baselinePath: 'b.json' }),
    );
    expect(value).toBe(1);
    const kept = /it was kept at (\S+\.json)/.exec(err)?.[1];
    expect(err).toContain(`could not write the run record to ${join(blocked, 'run.json')}`);
    expect((await readRunRecord(kept!)).metrics).toEqual([exact]);
    await rm(dirname(kept!), { recursive: true, force: true });
  });
});
