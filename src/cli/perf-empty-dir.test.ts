// `perf --dir EMPTY` (issue 41, item 7) says the folder holds no perf files, not "every scenario
// was skipped ()": refused before anything starts (RunInputError: exit 2).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunInputError } from '../runner/perf.js';
import { type CommandLine, parseCommandLine } from './args.js';
import { perfCommand } from './perf.js';

describe('perf --dir of a folder with no perf files', () => {
  it('names the folder and what a perf file is called', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gtp-empty-dir-'));
    try {
      const args = parseCommandLine(['perf', '--dir', dir], {}) as Extract<CommandLine, { command: 'perf' }>;
      const error = (await perfCommand(args).catch((e: unknown) => e)) as Error;
      expect(error).toBeInstanceOf(RunInputError);
      expect(error.message).toBe(
        `nothing to measure: --dir ${dir} holds no perf files ([NN-]name.perf.ts or [NN-]name.spec.ts); name the folder that holds them`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
