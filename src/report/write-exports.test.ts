import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { FileWriteError } from '../results/storage.js';
import { appendJobSummary } from './write-exports.js';
import { tempFolder } from '../../test/support/temp-folder.js';

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
