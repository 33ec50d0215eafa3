// `history --history EMPTY` (issue 41, item 7): no record, no page: exit 2 as the exit table says
// ("no usable record in it"), never 0 with no page written.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecordFileError } from '../results/storage.js';
import { historyCommand } from './history.js';

describe('history of an empty folder', () => {
  it('is refused (RecordFileError: exit 2) in one line naming --history, and writes no page', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gtp-empty-history-'));
    try {
      const out = join(dir, 'page.html');
      const error = (await historyCommand({ profile: null, metrics: [], history: dir, out, calibrate: false, force: false }).catch((e: unknown) => e)) as Error;
      expect(error).toBeInstanceOf(RecordFileError);
      expect(error.message).toMatch(new RegExp(`^--history ${dir} holds no records yet, so no page is written: `));
      expect(error.message.split('\n')).toHaveLength(1);
      expect(existsSync(out)).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
