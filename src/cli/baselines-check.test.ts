import { writeFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeBaseline } from '../results/baseline.js';
import { testRunRecord } from '../../test/support/run-record.js';
import { RecordFileError } from '../results/storage.js';
import { checkBaselinesReadable } from './baselines-check.js';
import { tempFolder } from '../../test/support/temp-folder.js';

const temp = tempFolder('gtp-baselines-check-');
beforeAll(async () => {
  const good = JSON.stringify(makeBaseline(testRunRecord([]), 'run.json', {}));
  await writeFile(temp.at('good-profile.json'), good);
  await writeFile(temp.at('tolerances.json'), '{}');
  await writeFile(temp.at('good-profile.calibration.json'), '{"not": "a baseline"}');
});

describe('checkBaselinesReadable', () => {
  it('passes good baselines and skips the other files of the folder', async () => {
    await expect(checkBaselinesReadable(null, 'quick', temp.path)).resolves.toBeUndefined();
    await expect(checkBaselinesReadable(null, 'full', temp.path)).resolves.toBeUndefined();
    await expect(checkBaselinesReadable(null, 'quick', temp.at('absent'))).resolves.toBeUndefined();
  });

  it('finds a truncated baseline of the scale before anything is measured', async () => {
    await writeFile(temp.at('cut.full.json'), '{"schemaVersion": 3, "metr');
    await expect(checkBaselinesReadable(null, 'quick', temp.path)).resolves.toBeUndefined();
    await expect(checkBaselinesReadable(null, 'full', temp.path)).rejects.toThrow(/cut.full.json: not valid JSON/);
    await expect(checkBaselinesReadable(temp.at('cut.full.json'), 'quick', temp.path)).rejects.toThrow(RecordFileError);
  });
});
