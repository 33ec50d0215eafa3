import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it, vi } from 'vitest';
import { testAbResult } from '../../test/support/ab-result.js';
import { testRunRecord } from '../../test/support/run-record.js';
import { tempFolder } from '../../test/support/temp-folder.js';
import { FileWriteError } from '../results/storage.js';
import { exportTargets } from './exporters.js';
import { appendJobSummary, writeAbExports, writeExports } from './write-exports.js';

const temp = tempFolder('gtp-summary-');
const at = (name: string) => temp.at(name);

describe('appendJobSummary', () => {
  it('appends to a regular file; a failure is a FileWriteError naming the variable, not a stack', async () => {
    const path = at('appended.md');
    await writeFile(path, '### gpu-transfer-perf: first\n');
    await appendJobSummary(path, 'second\n');
    expect(await readFile(path, 'utf8')).toBe('### gpu-transfer-perf: first\nsecond\n');
    const missing = at('gone-folder/summary.md');
    await expect(appendJobSummary(missing, 'x')).rejects.toBeInstanceOf(FileWriteError);
    await expect(appendJobSummary(missing, 'x')).rejects.toThrow(`GITHUB_STEP_SUMMARY=${missing}: cannot append the job summary to it (ENOENT)`);
    // A disk that fills after the check: /dev/full answers every write with ENOSPC (a device, so refused unopened up front).
    await expect(appendJobSummary('/dev/full', 'x')).rejects.toThrow('GITHUB_STEP_SUMMARY=/dev/full: cannot append the job summary to it (not a regular file)');
    await expect(appendJobSummary(null, 'x')).resolves.toBeUndefined();
  });
});

describe('writeExports with nothing of a kind (issue 40, item 5)', () => {
  it('writes no github-action-benchmark file the action would reject as empty, says so on stderr, and writes the rest', async () => {
    // perf --scenario mnist-loader: counts only, no ratio, time or rate.
    const record = testRunRecord([{ id: 'mnist-loader.batches', scenario: 'mnist-loader', kind: 'exact', value: 4, unit: 'batches' }]);
    const paths = { 'gab-bigger': at('bigger.json'), 'gab-smaller': at('smaller.json'), junit: at('run.xml'), bmf: null, json: null, markdown: null };
    const said = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      await writeExports({ record, recordPath: null, comparison: null }, 'perf', exportTargets('perf', paths, null), null);
      await writeAbExports(
        testAbResult({ verdicts: [testAbResult().verdicts[0]!] }),
        exportTargets('ab', { ...paths, 'gab-bigger': at('ab-bigger.json'), 'gab-smaller': at('ab-smaller.json') }, null),
      );
      const lines = said.mock.calls.map((c) => String(c[0]));
      expect(lines).toEqual([
        expect.stringMatching(/^note: --gab-bigger .*bigger\.json not written: this run has no bigger-is-better figure/),
        expect.stringMatching(/^note: --gab-smaller .*smaller\.json not written: this run has no smaller-is-better figure/),
        expect.stringMatching(/^note: --gab-smaller .*ab-smaller\.json not written: this A\/B has no smaller-is-better figure/),
      ]);
    } finally {
      said.mockRestore();
    }
    await expect(readFile(at('bigger.json'))).rejects.toThrow(/ENOENT/);
    await expect(readFile(at('smaller.json'))).rejects.toThrow(/ENOENT/);
    expect(await readFile(at('run.xml'), 'utf8')).toMatch(/<testsuites /);
    expect(JSON.parse(await readFile(at('ab-bigger.json'), 'utf8'))).toHaveLength(1);
  });
});
