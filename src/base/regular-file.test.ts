import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertRegularFile,
  firstSpecialEntry,
  fsErrorCause,
  NotRegularFileError,
  notRegularReasonSync,
  outputEntry,
  outputStream,
  readRegularFile,
  readRegularFileSync,
} from './regular-file.js';
import { tempFolder } from '../../test/support/temp-folder.js';

// Every entry is a real one (mkfifo, mknod c 1 3: the numbers of /dev/null, made in a temp folder;
// a listening Unix socket): a FIFO opened for reading blocks, so each test has a time limit and
// a regression fails instead of hanging.
const temp = tempFolder('gtp-regular-file-');
let server: Server;
const at = (name: string) => temp.at(name);
const LIMIT_MS = 10_000;

beforeAll(async () => {
  await writeFile(at('file.json'), '{}');
  execFileSync('mkfifo', [at('fifo')]);
  execFileSync('mknod', [at('null'), 'c', '1', '3']);
  await mkdir(at('folder'));
  await symlink(at('file.json'), at('link-to-file'));
  await symlink(at('fifo'), at('link-to-fifo'));
  await symlink('gone', at('dangling'));
  server = createServer();
  await new Promise<void>((listening) => server.listen(at('socket'), listening));
});
afterAll(async () => {
  await new Promise((closed) => server?.close(closed));
});

describe('fsErrorCause (the cause a path check says in one line)', () => {
  it('says a looping link in words (issue 51: `Error: ELOOP ...` named no flag), other codes as they are', async () => {
    await symlink('self', at('self'));
    const loop = await readRegularFile(join(at('self'), 'x.json')).catch((e: unknown) => e);
    expect(fsErrorCause(loop)).toBe('ELOOP: a symbolic link in the path loops');
    const missing = await readRegularFile(at('no-such.json')).catch((e: unknown) => e);
    expect(fsErrorCause(missing)).toBe('ENOENT');
    expect(fsErrorCause(new Error('first\nsecond'))).toBe('first');
  });
});

describe('outputStream', () => {
  it('names stdout for - and /dev/stdout, stderr for /dev/stderr, and nothing for a file', () => {
    expect(['-', '/dev/stdout', '/dev/fd/1'].map(outputStream)).toEqual(['stdout', 'stdout', 'stdout']);
    expect(['/dev/stderr', '/dev/fd/2'].map(outputStream)).toEqual(['stderr', 'stderr']);
    expect(['out.json', './-', '/dev/null', 'toString', '--'].map(outputStream)).toEqual([null, null, null, null, null]);
  });
});

describe('outputEntry', () => {
  it('is missing, a file, or a link to a file', async () => {
    await expect(outputEntry(at('new.json'))).resolves.toEqual({ kind: 'missing' });
    await expect(outputEntry(at('file.json'))).resolves.toEqual({ kind: 'file', link: false });
    await expect(outputEntry(at('link-to-file'))).resolves.toEqual({ kind: 'file', link: true });
  });

  it(
    'refuses a FIFO, a device, a socket, a folder, a link to a FIFO and a dangling link, saying what each is',
    async () => {
      const reason = async (name: string) => ((await outputEntry(at(name)).catch((e: unknown) => e)) as NotRegularFileError).reason;
      expect(await reason('fifo')).toBe('a FIFO (named pipe), not a regular file');
      expect(await reason('null')).toBe('a character device, not a regular file');
      expect(await reason('socket')).toBe('a socket, not a regular file');
      expect(await reason('folder')).toBe('a directory, not a regular file');
      expect(await reason('link-to-fifo')).toBe('a FIFO (named pipe), not a regular file');
      expect(await reason('dangling')).toBe('a dangling symbolic link (to gone, which does not exist)');
      await expect(outputEntry(at('fifo'))).rejects.toBeInstanceOf(NotRegularFileError);
    },
    LIMIT_MS,
  );

  it('is missing below a file (ENOTDIR: the folder check names the cause), and throws other errors as they are', async () => {
    await expect(outputEntry(at('file.json/below'))).resolves.toEqual({ kind: 'missing' });
    await symlink('loop-b', at('loop-a'));
    await symlink('loop-a', at('loop-b'));
    await expect(outputEntry(at('loop-a/below'))).rejects.toMatchObject({ code: 'ELOOP' });
  });
});

describe('reading only regular files', () => {
  it(
    'reads a file, and refuses a FIFO and a device without opening them, async and sync',
    async () => {
      expect((await readRegularFile(at('file.json'))).toString()).toBe('{}');
      expect(readRegularFileSync(at('link-to-file')).toString()).toBe('{}');
      for (const name of ['fifo', 'null', 'link-to-fifo', 'socket']) {
        await expect(readRegularFile(at(name))).rejects.toBeInstanceOf(NotRegularFileError);
        expect(() => readRegularFileSync(at(name))).toThrow(NotRegularFileError);
        await expect(assertRegularFile(at(name))).rejects.toBeInstanceOf(NotRegularFileError);
      }
      await expect(assertRegularFile(at('file.json'))).resolves.toBeUndefined();
      expect(notRegularReasonSync(at('dangling'))).toEqual({ kind: 'dangling-link', reason: 'a dangling symbolic link (to gone, which does not exist)' });
      expect(() => readRegularFileSync(at('absent'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    },
    LIMIT_MS,
  );
});

describe('firstSpecialEntry', () => {
  it('finds the first FIFO, socket or device in a tree, not following links', async () => {
    const tree = at('tree');
    await mkdir(join(tree, 'a/b'), { recursive: true });
    await writeFile(join(tree, 'a/b/speed'), '8.0 GT/s PCIe\n');
    await symlink('..', join(tree, 'a/b/up'));
    expect(firstSpecialEntry(tree)).toBeNull();
    execFileSync('mkfifo', [join(tree, 'a/b/width')]);
    expect(firstSpecialEntry(tree)).toEqual({ path: join(tree, 'a/b/width'), kind: 'a FIFO (named pipe)' });
  });
});
