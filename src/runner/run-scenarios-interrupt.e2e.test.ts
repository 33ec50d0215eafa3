// An interrupted `perf` leaves no vitest temp folder (<tmp>/<21-character id>/, the modules
// vitest transformed for the forked worker) behind (issue 21 #16): the real command in a child
// process with its own TMPDIR, a real signal once it is measuring, then that folder listed.
import { mkdtemp, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { interruptedCli, tempFolderOfFile } from '../../test/support/interrupt.js';

const temp = tempFolderOfFile('gtp-vitest-tmp-');
const vitestTmp = (names: readonly string[]) => names.filter((n) => /^[A-Za-z0-9_-]{21}$/.test(n));

describe('interrupting npm run perf', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    '%s leaves no vitest temp folder in the temp directory',
    async (signal) => {
      const tmp = await mkdtemp(join(temp(), `${signal}-`));
      let during: string[] = [];
      const { code, output } = await interruptedCli(['perf', '--scenario', '6', '--out', join(tmp, 'out', 'run.json')], {
        after: '[gpu-transfer-perf] backend:',
        delayMs: 2_000,
        signal,
        env: { TMPDIR: tmp },
        before: async () => {
          during = await readdir(tmp);
        },
      });
      expect(code, output).not.toBe(0);
      expect(vitestTmp(during)).toHaveLength(1); // it was there to be removed
      expect(vitestTmp(await readdir(tmp))).toEqual([]);
    },
    120_000,
  );
});
