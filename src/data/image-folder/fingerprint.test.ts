import { execFileSync } from 'node:child_process';
import { cp, mkdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { tempFolder } from '../../../test/support/temp-folder.js';
import { fingerprintImageFolder } from './fingerprint.js';
import { scanImageFolder } from './layout.js';

/** The fingerprint of the folder as the question reads it: listed, then hashed. */
const fingerprintOf = async (root: string) => fingerprintImageFolder(await scanImageFolder(root));

describe('fingerprintImageFolder', () => {
  const temp = tempFolder('gtp-fingerprint-');
  let root = '';
  let n = 0;
  beforeEach(async () => {
    // A fresh copy of the same three files for each test (the bytes need not decode: nothing is decoded).
    root = temp.at(`set-${n++}`);
    await mkdir(join(root, 'cats'), { recursive: true });
    await mkdir(join(root, 'dogs'));
    await writeFile(join(root, 'cats', 'a.jpg'), 'cat a');
    await writeFile(join(root, 'cats', 'b.png'), 'cat b');
    await writeFile(join(root, 'dogs', 'c.jpg'), 'dog c');
  });

  it('is pinned: a change of recipe would make every stored image-folder baseline other data', async () => {
    // Computed apart, in Python, from the recipe as documented: sha256(b'gtp-image-folder-v1' +
    // for each file: len(rel).to_bytes(4, 'big') + rel + sha256(contents).digest()).
    expect(await fingerprintOf(root)).toBe('0e88299c75992a8d7dbf991f74efef96b1bbe32593a667782ce8268186b33dde');
  });

  it('is the same for the unchanged folder: read again, touched (new mtimes), or copied elsewhere', async () => {
    const before = await fingerprintOf(root);
    expect(await fingerprintOf(root)).toBe(before);
    await utimes(join(root, 'cats', 'a.jpg'), new Date('2001-01-01'), new Date('2001-01-01'));
    expect(await fingerprintOf(root)).toBe(before);
    // A CI checkout or cache restore: same names and bytes at another path, every mtime new.
    await cp(root, `${root}-copy`, { recursive: true });
    expect(await fingerprintOf(`${root}-copy`)).toBe(before);
    // Files the layout does not list are not the data: a note beside the images changes nothing.
    await writeFile(join(root, 'cats', 'notes.txt'), 'not an image');
    await writeFile(join(root, 'loose.jpg'), 'outside every class');
    expect(await fingerprintOf(root)).toBe(before);
  });

  it('changes when a file is added', async () => {
    const before = await fingerprintOf(root);
    await writeFile(join(root, 'dogs', 'd.jpg'), 'dog d');
    expect(await fingerprintOf(root)).not.toBe(before);
  });

  it('changes when a file is edited, even with its size and mtime kept', async () => {
    const path = join(root, 'cats', 'b.png');
    // Whole seconds, which every file system keeps exactly.
    await utimes(path, 1_000_000_000, 1_000_000_000);
    const before = await fingerprintOf(root);
    await writeFile(path, 'cat B'); // same size
    await utimes(path, 1_000_000_000, 1_000_000_000);
    expect((await stat(path)).mtimeMs).toBe(1_000_000_000_000);
    expect((await stat(path)).size).toBe(5);
    expect(await fingerprintOf(root)).not.toBe(before);
  });

  it('changes when a file is renamed or moved to another class (its label changes)', async () => {
    const before = await fingerprintOf(root);
    await rename(join(root, 'cats', 'a.jpg'), join(root, 'cats', 'z.jpg'));
    const renamed = await fingerprintOf(root);
    expect(renamed).not.toBe(before);
    await rename(join(root, 'cats', 'z.jpg'), join(root, 'dogs', 'z.jpg'));
    const moved = await fingerprintOf(root);
    expect(new Set([before, renamed, moved]).size).toBe(3);
  });

  it('does not open a FIFO named as an image (it would block), and hashes it as what it is', async () => {
    const before = await fingerprintOf(root);
    execFileSync('mkfifo', [join(root, 'dogs', 'e.jpg')]);
    const withFifo = await fingerprintOf(root);
    expect(withFifo).not.toBe(before);
    expect(await fingerprintOf(root)).toBe(withFifo);
    await rm(join(root, 'dogs', 'e.jpg'));
    await writeFile(join(root, 'dogs', 'e.jpg'), '');
    expect(await fingerprintOf(root)).not.toBe(withFifo);
  });
});
