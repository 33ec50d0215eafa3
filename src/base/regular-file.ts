import { closeSync, constants, fstatSync, lstatSync, openSync, type PathLike, readdirSync, readFileSync, readlinkSync, type Stats, statSync } from 'node:fs';
import { join } from 'node:path';
import { lstat, open, readlink, stat } from 'node:fs/promises';

/** Causes whose code alone says little to a user, in words (the others are shown as their code: ENOTDIR, ENOSPC). */
const CAUSE_WORDS: Readonly<Record<string, string>> = {
  ELOOP: 'a symbolic link in the path loops',
  EACCES: 'permission denied',
  EROFS: 'a read-only file system',
};

/**
 * A file-system error's cause for a one-line message: its code, with words where the code alone
 * is cryptic ('ELOOP: a symbolic link in the path loops'); an error without a code, its message's
 * first line. Every path check (flags' folders, outputs, the perf files' folder) says causes so.
 */
export function fsErrorCause(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (typeof code !== 'string') return String((error as Error | null)?.message ?? error).split('\n')[0] ?? '';
  const words = CAUSE_WORDS[code];
  return words ? `${code}: ${words}` : code;
}

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

/** The reason for a stat error at `path`: a dangling or looping link (found with lstat, which never follows it), or null for any other error. */
function linkReason(code: string | undefined, isLink: boolean, target: () => string): { kind: NotRegularKind; reason: string } | null {
  if (!isLink) return null;
  if (code === 'ELOOP') return { kind: 'looping-link', reason: 'a symbolic link that loops' };
  return {
    kind: 'dangling-link',
    reason: `a dangling symbolic link (to ${target()}, which ${code === 'ENOENT' ? 'does not exist' : `cannot be reached: ${code}`})`,
  };
}

/** The reason stats that are not a regular file's give. */
const notAFile = (stats: Stats) => (stats.isFile() ? null : { kind: 'not-a-file' as const, reason: `${entryKind(stats)}, not a regular file` });

/**
 * Why the entry at `path` (symlinks followed) is not a regular file, or null when it is one;
 * a stat error other than a dangling or looping link is thrown as it is (EACCES, ENOENT).
 * Only stat and lstat: neither opens the entry, so neither blocks on a FIFO or a device.
 */
export async function notRegularReason(path: PathLike): Promise<{ kind: NotRegularKind; reason: string } | null> {
  try {
    return notAFile(await stat(path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const link = await lstat(path).catch(() => null);
    const target = link?.isSymbolicLink() ? await readlink(path).catch(() => '?') : '?';
    const reason = linkReason(code, link?.isSymbolicLink() === true, () => target);
    if (!reason) throw error;
    return reason;
  }
}

/** notRegularReason without waiting (sysfs is read synchronously): stat and lstat only, never an open. */
export function notRegularReasonSync(path: PathLike): { kind: NotRegularKind; reason: string } | null {
  try {
    return notAFile(statSync(path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const link = (() => {
      try {
        return lstatSync(path);
      } catch {
        return null;
      }
    })();
    const reason = linkReason(code, link?.isSymbolicLink() === true, () => {
      try {
        return readlinkSync(path, 'utf8');
      } catch {
        return '?';
      }
    });
    if (!reason) throw error;
    return reason;
  }
}

/** Throws NotRegularFileError unless `path` is a regular file (or a link to one): before anything opens it, which would block on a FIFO. */
export async function assertRegularFile(path: PathLike): Promise<void> {
  const reason = await notRegularReason(path);
  if (reason) throw new NotRegularFileError(path, reason.kind, reason.reason);
}

/**
 * Reads a file only if it is a regular file: checked before opening (a FIFO would block the
 * read forever, a device could have no end), then opened non-blocking and checked again on the
 * open descriptor, so a file swapped for a FIFO between the two cannot block either.
 * Throws NotRegularFileError, or the open/read error (ENOENT, EACCES).
 */
export async function readRegularFile(path: PathLike): Promise<Buffer> {
  await assertRegularFile(path);
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new NotRegularFileError(path, 'not-a-file', `${entryKind(stats)} when opened, not a regular file`);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** readRegularFile without waiting (sysfs files are read synchronously): checked with stat, then opened non-blocking and checked again. */
export function readRegularFileSync(path: PathLike): Buffer {
  const before = notRegularReasonSync(path);
  if (before) throw new NotRegularFileError(path, before.kind, before.reason);
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new NotRegularFileError(path, 'not-a-file', `${entryKind(stats)} when opened, not a regular file`);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A file's text, or null when it does not exist or cannot be read (sysfs returns EINVAL for a failed config read) or is not a regular file (a FIFO is never opened: it would block). */
export function readText(path: string): string | null {
  try {
    return readRegularFileSync(path).toString('utf8');
  } catch {
    return null;
  }
}

/** The standard stream an output writes to instead of a file. */
export type OutputStream = 'stdout' | 'stderr';

/**
 * The names that mean a standard stream as an output, as Unix tools take them: `-` is stdout
 * (POSIX utility convention, XBD 12.2 guideline 13), /dev/stdout and /dev/stderr (and
 * /dev/fd/1, /dev/fd/2) the streams themselves. They are written through the process's stream,
 * never opened, stat'ed or replaced: each is often a pipe (`| jq .`), which an open or a rename would hang or destroy.
 */
const STREAM_NAMES: Readonly<Record<string, OutputStream>> = {
  '-': 'stdout',
  '/dev/stdout': 'stdout',
  '/dev/fd/1': 'stdout',
  '/dev/stderr': 'stderr',
  '/dev/fd/2': 'stderr',
};

/** The stream `path` names as an output ('-', '/dev/stdout': stdout), or null when it names a file. */
export function outputStream(path: string): OutputStream | null {
  return Object.hasOwn(STREAM_NAMES, path) ? (STREAM_NAMES[path] ?? null) : null;
}

/** What an output path holds before it is written: nothing yet, or a regular file (through a symbolic link or not). */
export type OutputEntry = { readonly kind: 'missing' } | { readonly kind: 'file'; readonly link: boolean };

/**
 * What is at an output path, found with lstat and stat only (neither opens it, so a FIFO cannot
 * block): missing (it will be created) or a regular file; anything else is a NotRegularFileError
 * (a FIFO, socket, directory or device, a link to one, a dangling or looping link), never written.
 * Other stat errors (EACCES, ELOOP on the way) are thrown as they are.
 */
export async function outputEntry(path: PathLike): Promise<OutputEntry> {
  // ENOTDIR: a folder on the way is a file, so nothing is there (the folder check says why it cannot be written).
  const link = await lstat(path).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' || error.code === 'ENOTDIR' ? null : Promise.reject(error)));
  if (!link) return { kind: 'missing' };
  const reason = await notRegularReason(path);
  if (reason) throw new NotRegularFileError(path, reason.kind, reason.reason);
  return { kind: 'file', link: link.isSymbolicLink() };
}

/**
 * The first entry under `dir` (depth first, names sorted) that is neither a regular file, a
 * folder nor a symbolic link: a FIFO, socket or device, found with lstat alone (links are not
 * followed, so a copy's links cannot loop the walk). Null when there is none. For a copied tree
 * (a copy of /sys) that is read file by file later: one such entry is named before anything runs.
 */
export function firstSpecialEntry(dir: string): { path: string; kind: string } | null {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    const stats = lstatSync(path);
    if (stats.isDirectory()) {
      const found = firstSpecialEntry(path);
      if (found) return found;
    } else if (!stats.isFile() && !stats.isSymbolicLink()) return { path, kind: entryKind(stats) };
  }
  return null;
}
