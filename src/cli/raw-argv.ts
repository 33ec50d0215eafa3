import { readFileSync } from 'node:fs';
import { isUtf8 } from '../data/image-folder/names.js';

/**
 * The command line as bytes (issue 41, item 7: non-UTF-8 bytes in a path). Node decodes argv as
 * UTF-8 and puts U+FFFD for each invalid sequence (process.argv cannot say which bytes they
 * were), so `--out $'out\xff.json'` wrote a file named `out\uFFFD.json` and an existing
 * `$'\xff.json'` was "ENOENT". The harness's paths are strings throughout, so such an argument
 * is refused, naming its flag and showing its bytes, rather than read or written as another file.
 *
 * The bytes are read from Linux's /proc/<pid>/cmdline: this process's own, and its ancestors',
 * since `npm run gtp -- ...` (npm is Node too) and tsx's CLI decode the command line before it
 * reaches this process, which then sees the U+FFFD as valid UTF-8 (bytes EF BF BD).
 */

/** One argument vector per process, this one first, then its parent and so on: each argument as bytes. */
export type ProcessArgvs = readonly (readonly Buffer[])[];

/** Ancestors looked at: npm (or npx) and a shell, or tsx's CLI, stand between a user and this process; 4 covers them with room. */
const MAX_ANCESTORS = 4;

/** A process's argument vector as bytes (NUL-separated in /proc), or null when it cannot be read. */
function cmdline(pid: string, proc: string): Buffer[] | null {
  try {
    const raw = readFileSync(`${proc}/${pid}/cmdline`);
    const args: Buffer[] = [];
    for (let start = 0; start < raw.length; ) {
      const end = raw.indexOf(0, start);
      const stop = end === -1 ? raw.length : end;
      args.push(raw.subarray(start, stop));
      start = stop + 1;
    }
    return args;
  } catch {
    return null;
  }
}

/** A process's parent's pid (from /proc/<pid>/status), or null at the root or when it cannot be read. */
function parentOf(pid: string, proc: string): string | null {
  try {
    const ppid = /^PPid:\s+(\d+)$/m.exec(readFileSync(`${proc}/${pid}/status`, 'utf8'))?.[1];
    return ppid && ppid !== '0' ? ppid : null;
  } catch {
    return null;
  }
}

/** This process's argument vector and its ancestors' (up to MAX_ANCESTORS), as bytes; null where /proc cannot be read (not Linux). */
export function processArgvs(proc = '/proc'): ProcessArgvs | null {
  const own = cmdline('self', proc);
  if (own === null) return null;
  const all = [own];
  let pid = parentOf('self', proc);
  for (let i = 0; pid !== null && i < MAX_ANCESTORS; i++) {
    const args = cmdline(pid, proc);
    if (args) all.push(args);
    pid = parentOf(pid, proc);
  }
  return all;
}

/** What the bytes of an argument holding U+FFFD were: found (not valid UTF-8), or unknown, and why. */
export type LostBytes = { readonly bytes: Buffer } | { readonly unknown: string };

/**
 * What `arg` (as process.argv holds it) was given as, when it holds U+FFFD: the bytes of an
 * argument of this process or an ancestor that is not valid UTF-8 and decodes to `arg`; else
 * unknown when no process's bytes can be read (no /proc), or when an ancestor holds `arg` only
 * inside a longer argument (npm sets its process title, which replaces its /proc cmdline, to its
 * decoded command line `npm run gtp -- ...`: the bytes are gone there, and a real U+FFFD cannot
 * be told from a lost byte). Null when `arg` holds no U+FFFD, or its bytes are valid UTF-8 (a
 * real U+FFFD given straight to the CLI, or an argument from no command line: a test's own string).
 */
export function lostBytes(arg: string, argvs: ProcessArgvs | null): LostBytes | null {
  if (!arg.includes('\uFFFD')) return null;
  if (argvs === null) return { unknown: 'the bytes given cannot be read here (no /proc)' };
  for (const argv of argvs) for (const entry of argv) if (!isUtf8(entry) && entry.toString('utf8') === arg) return { bytes: entry };
  for (const argv of argvs)
    for (const entry of argv) {
      const text = entry.toString('utf8');
      if (text !== arg && text.includes(arg))
        return { unknown: `a process before the CLI (${text.split(' ')[0]}) read the command line as UTF-8 first, so the bytes given are gone` };
    }
  return null;
}
