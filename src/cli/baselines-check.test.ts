import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBaseline } from '../results/baseline.js';
import { testRunRecord } from '../../test/support/run-record.js';
import { RecordFileError } from '../results/storage.js';
import { checkBaselinesReadable } from './baselines-check.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gtp-baselines-check-'));
  const good = JSON.stringify(makeBaseline(testRunRecord([]), 'run.json', {}));
  await writeFile(join(dir, 'good-profile.json'), good);
  await writeFile(join(dir, 'tolerances.json'), '{}');
  await writeFile(join(dir, 'good-profile.calibration.json'), '{"not": "a baseline"}');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('checkBaselinesReadable', () => {
  it('passes good baselines and skips the other files of the folder', async () => {
    await expect(checkBaselinesReadable(null, 'quick', dir)).resolves.toBeUndefined();
    await expect(checkBaselinesReadable(null, 'full', dir)).resolves.toBeUndefined();
    await expect(checkBaselinesReadable(null, 'quick', join(dir, 'absent'))).resolves.toBeUndefined();
  });

  it('finds a truncated baseline of the scale before anything is measured', async () => {
    await writeFile(join(dir, 'cut.full.json'), '{"schemaVersion": 3, "metr');
    await expect(checkBaselinesReadable(null, 'quick', dir)).resolves.toBeUndefined();
    await expect(checkBaselinesReadable(null, 'full', dir)).rejects.toThrow(/cut.full.json: not valid JSON/);
    await expect(checkBaselinesReadable(join(dir, 'cut.full.json'), 'quick', dir)).rejects.toThrow(RecordFileError);
  });
});
