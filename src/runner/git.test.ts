import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitState } from './git.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gtp-git-state-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('gitState', () => {
  it('outside git and outside a kit: nulls', () => {
    expect(gitState(dir)).toEqual({ commit: null, dirty: null });
  });

  it('in an unpacked kit (no .git): the commit its KIT.json says it was built from', async () => {
    const commit = 'a'.repeat(40);
    await writeFile(join(dir, 'KIT.json'), JSON.stringify({ name: 'kit', git: { commit, dirty: false } }));
    expect(gitState(dir)).toEqual({ commit, dirty: false });
    // A manifest without a real commit id says nothing.
    await writeFile(join(dir, 'KIT.json'), JSON.stringify({ git: { commit: null, dirty: null } }));
    expect(gitState(dir)).toEqual({ commit: null, dirty: null });
  });
});
