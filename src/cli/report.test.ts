import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeBaseline } from '../results/baseline.js';
import { RecordFileError, writeJsonAtomic } from '../results/storage.js';
import { testRunRecord } from '../../test/support/run-record.js';
import type { Metric } from '../results/schema.js';
import { besideRecord } from '../results/storage.js';
import { reportCommand } from './report.js';
import { tempFolder } from '../../test/support/temp-folder.js';

const bytes: Metric = {
  id: 'mnist-transfer.upload-bytes.device-normalize',
  scenario: 'device-normalize',
  kind: 'exact',
  value: 50_176,
  unit: 'B',
  source: 'measured',
};

const temp = tempFolder('report-cmd-');
beforeAll(async () => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
});
afterAll(async () => {
  vi.restoreAllMocks();
});

async function writeRun(name: string, metrics: Metric[]): Promise<string> {
  const path = temp.at(name);
  await writeJsonAtomic(path, testRunRecord(metrics));
  return path;
}

describe('reportCommand', () => {
  it('writes the HTML beside the run record by default', async () => {
    const run = await writeRun('run-a.json', [bytes]);
    expect(besideRecord(run, '.html')).toBe(temp.at('run-a.html'));
    const code = await reportCommand({ run, baseline: temp.at('none.json'), out: null, baselines: 'baselines', force: false }).catch((e: unknown) => e);
    // An explicit baseline that cannot be read is bad input (main turns it into exit 2).
    expect(code).toBeInstanceOf(RecordFileError);
  });

  it('exits 0 and says so when the profile has no baseline', async () => {
    const record = testRunRecord([bytes]);
    const run = temp.at('run-c.json');
    await writeJsonAtomic(run, { ...record, profile: { ...record.profile, id: 'no-such-profile-x64' } });
    expect(await reportCommand({ run, baseline: null, out: null, baselines: 'baselines', force: false })).toBe(0);
    expect(await readFile(temp.at('run-c.html'), 'utf8')).toContain('No baseline for this profile');
  });

  it('exits 0 when the run passes its baseline, 1 when it regressed, 3 when the comparison is refused', async () => {
    const run = await writeRun('run-b.json', [bytes]);
    const same = temp.at('same.json');
    await writeJsonAtomic(same, makeBaseline(testRunRecord([bytes]), 'x', {}));
    const out = temp.at('b.html');
    expect(await reportCommand({ run, baseline: same, out, baselines: 'baselines', force: false })).toBe(0);
    expect(await readFile(out, 'utf8')).toContain('No: the one gating figure passes');

    const other = temp.at('other.json');
    await writeJsonAtomic(other, makeBaseline(testRunRecord([{ ...bytes, value: 200_704 }]), 'x', {}));
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await reportCommand({ run, baseline: other, out, baselines: 'baselines', force: false })).toBe(1);
    expect(await readFile(out, 'utf8')).toContain('verdict-regressed');
    // The exit code is explained on the console, naming the metric.
    expect(stderr).toHaveBeenLastCalledWith(
      expect.stringMatching(/^exit 1: 1 gating metric failed \(mnist-transfer\.upload-bytes\.device-normalize regressed\)/),
    );

    const full = temp.at('full.json');
    await writeJsonAtomic(full, makeBaseline(testRunRecord([bytes], { scale: 'full' }), 'x', {}));
    expect(await reportCommand({ run, baseline: full, out, baselines: 'baselines', force: false })).toBe(3);
    expect(await readFile(out, 'utf8')).toContain('Baseline comparison refused');
    expect(stderr).toHaveBeenLastCalledWith(expect.stringMatching(/^exit 3: the comparison was refused: /));
  });
});
