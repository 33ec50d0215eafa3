import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testRunRecord } from '../../test/support/run-record.js';
import { historyPath } from '../history/store.js';
import { baselineSchema, makeBaseline } from '../results/baseline.js';
import { OutputPathError } from '../results/output-guard.js';
import { writeJsonAtomic } from '../results/storage.js';
import { baselineCommand, valueDiff } from './baseline.js';

describe('valueDiff (what perf:baseline shows before it writes)', () => {
  it('leaves the baselines it compares untouched: a CI of tiny times keeps every digit and still holds its value', async () => {
    const tiny = {
      id: 'x.stage-ms.host',
      scenario: 'x',
      kind: 'time' as const,
      value: 0.00032018819431112774,
      unit: 'ms',
      ci: [0.0002980915782872129, 0.0003433227303369101] as [number, number],
    };
    const before = makeBaseline(testRunRecord([{ ...tiny, value: 0.0004, ci: [0.00035, 0.00045] }]), 'a.json', {});
    const next = makeBaseline(testRunRecord([tiny]), 'b.json', {});
    const copy = structuredClone(next);
    expect(await valueDiff(before, next)).not.toBe('');
    // json-diff's precision option rounded these arrays in place: [0.0003, 0.0003], no longer holding 0.00032.
    expect(next).toEqual(copy);
    expect(baselineSchema.safeParse(next).success).toBe(true);
  });
});

describe('baseline checks its whole plan before writing (issue 41, item 6)', () => {
  const record = testRunRecord([{ id: 'x.bytes', scenario: 'x', kind: 'exact', value: 1, unit: 'B' }]);
  /** A temp folder with run.json; `prepare` makes the history as the case needs; returns what baselineCommand did. */
  async function accept(prepare: (dir: string, slot: string) => Promise<void>, extra: { baselines?: (dir: string) => string } = {}) {
    const dir = await mkdtemp(join(tmpdir(), 'gtp-baseline-plan-'));
    try {
      await writeJsonAtomic(join(dir, 'run.json'), record);
      const history = join(dir, 'history');
      const slot = historyPath(history, record);
      await prepare(dir, slot);
      const target = extra.baselines ? null : join(dir, 'b.json');
      const outcome = await baselineCommand({
        run: join(dir, 'run.json'),
        target,
        baselines: extra.baselines?.(dir) ?? join(dir, 'bl'),
        allowDirty: false,
        allowPartial: false,
        merge: false,
        history,
      }).then(
        (code) => ({ code, error: null }),
        (error: unknown) => ({ code: null, error: error as Error }),
      );
      return { ...outcome, slot, written: existsSync(join(dir, 'b.json')) };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  const fifo = (path: string) => execFileSync('mkfifo', [path]);

  it('refuses a history profile folder that is a FIFO or a file, before the baseline is written, naming --history (not a temp file)', async () => {
    for (const make of [fifo, (p: string) => execFileSync('touch', [p])]) {
      const r = await accept(async (_dir, slot) => {
        await mkdir(dirname(dirname(slot)), { recursive: true });
        make(dirname(slot));
      });
      expect(r.error).toBeInstanceOf(OutputPathError);
      expect(r.error?.message).toMatch(/^--history .*history: cannot write into .*history\/webgpu-lavapipe-x64 \(ENOTDIR\)/);
      expect(r.error?.message).not.toMatch(/pending/);
      expect(r.written).toBe(false);
    }
  });

  it('refuses a FIFO, a link or a file that is no record at the history slot, as at .prev; nothing written', async () => {
    const cases: Array<[string, (slot: string) => Promise<void>, RegExp]> = [
      ['FIFO', async (slot) => void fifo(slot), /is a FIFO \(named pipe\), not a history record; remove it/],
      ['link', async (slot) => symlink('/etc/hostname', slot), /is a symbolic link, not a history record; remove it/],
      ['not a record', async (slot) => writeFile(slot, 'notes'), /is there and is not a run record/],
    ];
    for (const [name, make, says] of cases) {
      const r = await accept(async (_dir, slot) => {
        await mkdir(dirname(slot), { recursive: true });
        await make(slot);
      });
      expect(r.error, name).toBeInstanceOf(OutputPathError);
      expect(r.error?.message, name).toMatch(says);
      expect(r.written, name).toBe(false);
    }
  });

  it('takes a slot that already holds the record: written, and the history left as it is', async () => {
    const r = await accept(async (_dir, slot) => {
      await mkdir(dirname(slot), { recursive: true });
      await writeJsonAtomic(slot, record);
    });
    expect(r).toMatchObject({ code: 0, error: null, written: true });
  });

  it('names --baselines when it is a FIFO, not a bare ENOTDIR', async () => {
    const r = await accept(async (dir) => void fifo(join(dir, 'bl-fifo')), { baselines: (dir) => join(dir, 'bl-fifo') });
    expect(r.error?.message).toMatch(/^--baselines .*bl-fifo: a FIFO \(named pipe\), not a folder; name a folder/);
  });
});
