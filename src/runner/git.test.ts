import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { gitState } from './git.js';
import { tempFolder } from '../../test/support/temp-folder.js';

const temp = tempFolder('gtp-git-state-');

describe('gitState', () => {
  it('outside git and outside a kit: nulls', () => {
    expect(gitState(temp.path)).toEqual({ commit: null, dirty: null });
  });

  it('in an unpacked kit (no .git): the commit its KIT.json says it was built from', async () => {
    const commit = 'a'.repeat(40);
    await writeFile(temp.at('KIT.json'), JSON.stringify({ name: 'kit', git: { commit, dirty: false } }));
    expect(gitState(temp.path)).toEqual({ commit, dirty: false });
    // A manifest without a real commit id says nothing.
    await writeFile(temp.at('KIT.json'), JSON.stringify({ git: { commit: null, dirty: null } }));
    expect(gitState(temp.path)).toEqual({ commit: null, dirty: null });
  });
});
