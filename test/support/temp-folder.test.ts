import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempFolder } from './temp-folder.js';

const outer = tempFolder('gtp-temp-folder-outer-');
let seen = '';

describe('tempFolder', () => {
  const temp = tempFolder('gtp-temp-folder-');
  // Read while the file is collected, before any hook: an error that says so, not undefined.
  const tooEarly = (() => {
    try {
      return temp.path;
    } catch (error) {
      return (error as Error).message;
    }
  })();

  it('is a fresh folder of its own under the temp folder, with paths inside it', async () => {
    seen = temp.path;
    expect(dirname(seen)).toBe(tmpdir());
    expect(basename(seen)).toMatch(/^gtp-temp-folder-\w{6}$/);
    expect(existsSync(seen)).toBe(true);
    expect(temp.path).not.toBe(outer.path);
    await writeFile(temp.at('a.txt'), 'kept until the block ends');
    expect(await readFile(`${seen}/a.txt`, 'utf8')).toBe('kept until the block ends');
  });

  it('is the same folder for every test of its block', () => {
    expect(temp.path).toBe(seen);
    expect(existsSync(temp.at('a.txt'))).toBe(true);
  });

  it('says so when read before its beforeAll ran', () => {
    expect(tooEarly).toBe("tempFolder('gtp-temp-folder-'): read before its beforeAll ran (use it inside a hook or test)");
  });
});

describe('after its block', () => {
  it("is removed with what it held; the file's own folder lasts until the file ends", () => {
    expect(seen).not.toBe('');
    expect(existsSync(seen)).toBe(false);
    expect(existsSync(outer.path)).toBe(true);
  });
});
