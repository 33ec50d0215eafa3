import { constants, type PathLike, type Stats } from 'node:fs';
import { lstat, open, readlink, stat } from 'node:fs/promises';

/** What a file system entry is, in words: 'a FIFO (named pipe)', 'a directory'. */
export function entryKind(stats: Stats): string {
  if (stats.isFile()) return 'a regular file';
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

/** Why an entry is not read: a link to nothing, a link that loops, or something other than a regular file. */
export type NotRegularKind = 'dangling-link' | 'looping-link' | 'not-a-file';

/** A path that is not a regular file (or a dangling link): never opened for reading, so nothing blocks on a FIFO or a device. */
export class NotRegularFileError extends Error {
  override readonly name = 'NotRegularFileError';
  constructor(
    /** The path as given, shown with String() (a Buffer path's bytes as UTF-8). */
    readonly path: PathLike,
    readonly kind: NotRegularKind,
    /** 'a FIFO (named pipe), not a regular file', 'a dangling symbolic link (to x.json, which does not exist)'. */
    readonly reason: string,
  ) {
    super(`${String(path)}: ${reason}`);
  }
}

/**
 * Why the entry at `path` (symlinks followed) is not a regular file, or null when it is one;
 * a stat error other than a dangling or looping link is thrown as it is (EACCES, ENOENT).
 */
export async function notRegularReason(path: PathLike): Promise<{ kind: NotRegularKind; reason: string } | null> {
  try {
    const stats = await stat(path);
    return stats.isFile() ? null : { kind: 'not-a-file', reason: `${entryKind(stats)}, not a regular file` };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const link = await lstat(path).catch(() => null);
    if (!link?.isSymbolicLink()) throw error;
    if (code === 'ELOOP') return { kind: 'looping-link', reason: 'a symbolic link that loops' };
    const target = await readlink(path).catch(() => '?');
    return {
      kind: 'dangling-link',
      reason: `a dangling symbolic link (to ${target}, which ${code === 'ENOENT' ? 'does not exist' : `cannot be reached: ${code}`})`,
    };
  }
}

/**
 * Reads a file only if it is a regular file: checked before opening (a FIFO would block the
 * read forever, a device could have no end), then opened non-blocking and checked again on the
 * open descriptor, so a file swapped for a FIFO between the two cannot block either.
 * Throws NotRegularFileError, or the open/read error (ENOENT, EACCES).
 */
export async function readRegularFile(path: PathLike): Promise<Buffer> {
  const before = await notRegularReason(path);
  if (before) throw new NotRegularFileError(path, before.kind, before.reason);
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new NotRegularFileError(path, 'not-a-file', `${entryKind(stats)} when opened, not a regular file`);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}
