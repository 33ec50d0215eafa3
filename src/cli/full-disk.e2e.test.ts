// `baseline` on a history whose disk is really full (issue 41, item 6): a 64 KiB tmpfs, filled,
// mounted over --history's folder in a mount namespace of the CLI's own (`unshare --mount`, as
// root; nothing else sees it, and it goes with the process). At 811cc43 the baseline was replaced
// and then the history append failed (ENOSPC, exit 2, "nothing written" untrue); the plan check's
// probe write (src/cli/baseline.ts checkHistorySlot) must find the full disk first: exit 2, the
// message names --history and the slot (not a temp file), the baseline and its .prev as they were.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { cli } from '../../test/support/cli.js';
import { testRunRecord } from '../../test/support/run-record.js';
import { tempFolder } from '../../test/support/temp-folder.js';
import { makeBaseline } from '../results/baseline.js';
import { writeJsonAtomic } from '../results/storage.js';

const temp = tempFolder('gtp-full-disk-');

/** Runs "$@" with a full 64 KiB tmpfs at $0: mounted, then filled until ENOSPC (head's error is the point, so not shown). */
const FULL_DISK = [
  'unshare',
  '--mount',
  'sh',
  '-c',
  'mount -t tmpfs -o size=64k tmpfs "$0" && { head -c 1048576 /dev/zero > "$0/fill" 2>/dev/null; exec "$@"; }',
];

it('baseline with --history on a full disk: refused before the baseline is touched, exit 2, naming --history and ENOSPC', async (context) => {
  const mnt = temp.at('mnt');
  await mkdir(mnt);
  const wrap = [...FULL_DISK, mnt];
  const tried = await promisify(execFile)(wrap[0]!, [...wrap.slice(1), 'true']).then(
    () => null,
    (error: Error) => error.message.split('\n')[0],
  );
  if (tried !== null) context.skip(`a tmpfs in a mount namespace of its own cannot be made here (needs unshare and root): ${tried}`);
  const older = testRunRecord([{ id: 'x.bytes', scenario: 'x', kind: 'exact', value: 2, unit: 'B' }]);
  const run = testRunRecord([{ id: 'x.bytes', scenario: 'x', kind: 'exact', value: 1, unit: 'B' }]);
  await writeJsonAtomic(temp.at('run.json'), run);
  await writeJsonAtomic(temp.at('b.json'), makeBaseline(older, 'older.json', {}));
  const before = readFileSync(temp.at('b.json'));
  const { code, stdout, stderr } = await cli(['baseline', 'run.json', '--baseline', 'b.json', '--history', 'mnt/history'], temp.path, { wrap });
  expect(stderr).toMatch(
    /^error: --history mnt\/history: cannot write the run's record to mnt\/history\/webgpu-lavapipe-x64\/\S+\.json \(ENOSPC\); free some space/m,
  );
  expect(stderr).not.toMatch(/probe|pending/);
  expect(code, `${stdout}\n${stderr}`).toBe(2);
  expect(readFileSync(temp.at('b.json'))).toEqual(before);
  expect(existsSync(temp.at('b.json.prev'))).toBe(false);
  expect(stdout).not.toMatch(/^Wrote /m);
});
