import { constants, fstat, type Stats } from 'node:fs';
import { access, lstat, realpath, rm, stat, statfs, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { BASELINE_DIR } from './baseline.js';
import { ensureDirDurable, entryKind, writeTextAtomic } from './storage.js';
import { commandName } from '../base/commands.js';
import { streamFailed } from '../base/standard-streams.js';
import { fsErrorCause, NotRegularFileError, type OutputEntry, type OutputStream, outputEntry, outputStream, readRegularFile } from '../base/regular-file.js';

/** An output path that must not or cannot be written: exit 2, found before anything is measured. */
export class OutputPathError extends Error {
  override readonly name = 'OutputPathError';
}

/**
 * The kinds of file a command writes. A command may replace an existing file only when it
 * holds the same kind of output (an earlier run's record, report, verdicts), or with --force;
 * never a baseline (those change only through perf:baseline, which keeps a .prev).
 */
export type OutputKind =
  | 'run record'
  | 'HTML report'
  | 'Markdown verdict summary'
  | 'JSON verdict file'
  | 'doctor report'
  | 'A/B verdict file'
  | 'bisect file'
  | 'chart'
  | 'Bencher Metric Format file'
  | 'JUnit XML report'
  | 'github-action-benchmark file'
  | 'Prometheus textfile';

/** 'a run record', 'an HTML report'. */
const withArticle = (kind: string) => `${/^([AEIOU]|HTML)/i.test(kind) ? 'an' : 'a'} ${kind}`;

/** Parsed JSON, or undefined when `text` is not JSON. */
const jsonValue = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};
const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
/** Parsed JSON that is an object (not an array), or null. */
const jsonObject = (text: string): Record<string, unknown> | null => {
  const v = jsonValue(text);
  return isPlainObject(v) ? v : null;
};

/** A run record or baseline: versioned, with metrics and a profile (src/results/schema.ts). */
const isRecordLike = (j: Record<string, unknown> | null) =>
  j !== null && typeof j.schemaVersion === 'number' && Array.isArray(j.metrics) && typeof j.profile === 'object';
/** A baseline is a record with `accepted` (src/results/baseline.ts). */
const isBaseline = (j: Record<string, unknown> | null) => isRecordLike(j) && typeof j?.accepted === 'object';

/**
 * The exports for other engines (src/report/bmf.ts, junit.ts, github-benchmark.ts). An empty
 * BMF object or benchmark array is theirs too: replacing it loses nothing.
 */
const EXPORT_RECOGNIZERS = {
  // { benchmark: { measure: { value: number, ... } } } (Bencher's bmf.json).
  'Bencher Metric Format file': (c: Buffer) => {
    const j = jsonValue(c.toString('utf8'));
    return (
      isPlainObject(j) && Object.values(j).every((b) => isPlainObject(b) && Object.values(b).every((m) => isPlainObject(m) && typeof m.value === 'number'))
    );
  },
  // src/report/junit.ts names its root element after the tool.
  'JUnit XML report': (c: Buffer) => /^(<\?xml[^>]*>\s*)?<testsuites [^>]*name="gpu-transfer-perf"/.test(c.subarray(0, 512).toString('utf8')),
  // [{ name, value, unit, range?, extra? }] (github-action-benchmark's custom tools).
  'github-action-benchmark file': (c: Buffer) => {
    const j = jsonValue(c.toString('utf8'));
    return Array.isArray(j) && j.every((b) => isPlainObject(b) && typeof b.name === 'string' && typeof b.value === 'number' && typeof b.unit === 'string');
  },
} satisfies Partial<Record<OutputKind, (content: Buffer) => boolean>>;

/** Whether `content` (the existing file) is output of `kind`, as this harness writes it. */
const RECOGNIZERS: Record<OutputKind, (content: Buffer) => boolean> = {
  'run record': (c) => {
    const j = jsonObject(c.toString('utf8'));
    return isRecordLike(j) && !isBaseline(j);
  },
  // src/report/html.ts stamps the generator; older reports have only the title.
  'HTML report': (c) => {
    const head = c.subarray(0, 4096).toString('utf8');
    return (
      head.startsWith('<!doctype html>') && (head.includes('<meta name="generator" content="gpu-transfer-perf"') || head.includes('<title>gpu-transfer-perf'))
    );
  },
  // src/report/markdown.ts and src/report/ab.ts start with this heading.
  'Markdown verdict summary': (c) => c.subarray(0, 64).toString('utf8').startsWith('### gpu-transfer-perf'),
  'JSON verdict file': (c) => {
    const j = jsonObject(c.toString('utf8'));
    return j !== null && typeof j.runProfile === 'string' && Array.isArray(j.verdicts);
  },
  'doctor report': (c) => jsonObject(c.toString('utf8'))?.kind === 'gpu-transfer-perf doctor report',
  'A/B verdict file': (c) => {
    const j = jsonObject(c.toString('utf8'));
    return j !== null && typeof j.base === 'string' && typeof j.head === 'string' && Array.isArray(j.verdicts) && Array.isArray(j.processes);
  },
  'bisect file': (c) => {
    const j = jsonObject(c.toString('utf8'));
    return j !== null && typeof j.good === 'string' && typeof j.bad === 'string' && Array.isArray(j.probes);
  },
  // Charts are named after their run record (results/<run>.<chart>.svg|png): a PNG or an SVG there is a chart of an earlier run.
  chart: (c) =>
    c.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) ||
    /^(<\?xml[^>]*>\s*)?<svg/.test(c.subarray(0, 256).toString('utf8')),
  ...EXPORT_RECOGNIZERS,
  // src/doctor/prometheus.ts begins every textfile with its build_info family.
  'Prometheus textfile': (c) => c.subarray(0, 64).toString('utf8').startsWith('# HELP gtp_doctor_build_info '),
};

/** What an existing file that is not `kind` looks like, for the refusal message. */
function describeForeign(content: Buffer): string {
  const j = jsonObject(content.toString('utf8'));
  if (isBaseline(j)) return 'a baseline';
  for (const [kind, recognize] of Object.entries(RECOGNIZERS)) if (recognize(content)) return withArticle(kind);
  if (j) return 'another JSON file';
  return content.length === 0 ? 'an empty file' : 'another file';
}

/** A cause in a refusal: the error's code, in words where it is cryptic ('ELOOP: a symbolic link in the path loops'). */
const errorCode = fsErrorCause;

/** Fails now, not after the run, when a file cannot be created in `dir` (made if missing). */
export async function checkWritableDir(dir: string, what: string): Promise<void> {
  const probe = join(dir, `.gtp-write-probe-${process.pid}-${Date.now()}`);
  try {
    // Durably: a folder made here (results/, history/<profile>/) is where the outputs go later.
    await ensureDirDurable(dir);
    await writeFile(probe, '', { flag: 'wx' });
    await rm(probe, { force: true });
  } catch (error) {
    throw new OutputPathError(`${what}: cannot write into ${dir} (${errorCode(error)}); choose another place`);
  }
}

export interface OutputTarget {
  readonly path: string;
  readonly kind: OutputKind;
  /** The flag that named it, for messages ('--json'), or a description ('the HTML report beside the run record'). */
  readonly flag: string;
}

/** How outputs are checked: --force, and the run's baselines folder (--baselines DIR) besides baselines/. */
export interface OutputOptions {
  readonly force: boolean;
  readonly baselines?: string;
}

/**
 * `dir` with symlinks resolved, through its nearest existing ancestor when it does not exist
 * yet: a path through a link into baselines/ is inside baselines/.
 */
async function realFolder(dir: string): Promise<string> {
  const missing: string[] = [];
  let at = resolve(dir);
  for (;;) {
    const real = await realpath(at).catch(() => null);
    if (real !== null) return join(real, ...missing);
    const parent = dirname(at);
    if (parent === at) return resolve(dir);
    missing.unshift(basename(at));
    at = parent;
  }
}

/**
 * What is at an output path (nothing, or a regular file), from lstat/stat alone; anything else
 * refused with one line naming `what` (the flag and path) and what is there: a directory (with
 * `example`, a file name to put in it), a FIFO, socket, device, or a link to one or to nothing.
 */
export async function checkOutputEntry(path: string, what: string, hints: { example: string; stdoutHint: boolean }): Promise<OutputEntry> {
  return outputEntry(path).catch((error: unknown) => {
    if (!(error instanceof NotRegularFileError)) throw new OutputPathError(`${what}: cannot look at it (${errorCode(error)}); choose another path`);
    if (error.reason.startsWith('a directory')) throw new OutputPathError(`${what} is a directory; name a file, e.g. ${join(path, hints.example)}`);
    throw new OutputPathError(`${what}: is ${error.reason}; name a file${hints.stdoutHint ? ' (or - for stdout)' : ''}`);
  });
}

/**
 * Checks, before any measuring, that `target` may be written: `-`, /dev/stdout or /dev/stderr
 * (a stream: always); else a missing file in a writable folder, or a regular file already there
 * of the same kind (or --force); never a baseline. What is at the path is known from lstat/stat
 * alone before anything opens it: a FIFO, socket, directory, device (or a link to one) is refused
 * here, forced or not, so nothing blocks on it and no device node is replaced by a file.
 */
export async function checkOutput(target: OutputTarget, options: OutputOptions): Promise<void> {
  const { path, kind, flag } = target;
  if (outputStream(path)) return;
  const what = `${flag} ${path}`;
  const folder = await realFolder(dirname(path));
  for (const dir of new Set([BASELINE_DIR, options.baselines ?? BASELINE_DIR])) {
    const protectedDir = await realFolder(dir);
    if (folder === protectedDir || folder.startsWith(protectedDir + sep)) {
      throw new OutputPathError(`${what} is inside ${dir}/, the baselines folder: baselines change only through ${commandName('baseline')}`);
    }
  }
  const existing = await checkOutputEntry(path, what, {
    example: kind === 'HTML report' ? 'report.html' : 'out.json',
    stdoutHint: flag.startsWith('--') && kind !== 'run record',
  });
  await checkWritableDir(dirname(path), what);
  if (existing.kind === 'missing') return;
  let content: Buffer;
  try {
    content = await readRegularFile(path);
  } catch (error) {
    if (error instanceof NotRegularFileError) throw new OutputPathError(`${what}: is ${error.reason}; name a file`);
    throw new OutputPathError(`${what}: it exists and cannot be read (${errorCode(error)}), so it is not replaced; choose another path`);
  }
  if (isBaseline(jsonObject(content.toString('utf8')))) {
    throw new OutputPathError(`${what} is a baseline: refusing to overwrite it (baselines change only through ${commandName('baseline')})`);
  }
  if (RECOGNIZERS[kind](content) || options.force) return;
  throw new OutputPathError(
    `${what} exists and is ${describeForeign(content)}, not ${withArticle(kind)}: refusing to overwrite it; choose another path, or pass --force to replace it`,
  );
}

/** Checks every target (see checkOutput); two targets naming the same file, or the same stream (`-` and /dev/stdout), are refused too. */
export async function checkOutputs(targets: ReadonlyArray<OutputTarget | null>, options: OutputOptions): Promise<void> {
  const seen = new Map<string, OutputTarget>();
  for (const target of targets) {
    if (!target) continue;
    const stream = outputStream(target.path);
    const key = stream ? `<${stream}>` : resolve(target.path);
    const other = seen.get(key);
    if (other) {
      const both = stream ? ` (both ${stream})` : '';
      throw new OutputPathError(`${target.flag} ${target.path} is also ${other.flag}${both}: give each output its own file`);
    }
    seen.set(key, target);
    await checkOutput(target, options);
  }
}

/** stdout's own write, kept before moveConsoleToStderr: an output named `-` or /dev/stdout is written through it. */
const stdoutWrite = process.stdout.write.bind(process.stdout);

/**
 * Sends what the command prints for a person (console.log, vitest's lines) to stderr from now on,
 * so that stdout holds only the output named `-` or /dev/stdout: `gtp compare R --json - | jq .`
 * gets valid JSON. Called once an output names stdout (src/cli/main.ts).
 */
export function moveConsoleToStderr(): void {
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
}

/**
 * Writes `text` to a stream through its own write (stdout's as it was before moveConsoleToStderr).
 * A failure ends the process as every stream failure does (streamFailed): quietly when the reader
 * closed the pipe, else one line and exit 2; it never resolves then, so nothing is written after it.
 */
function writeStream(stream: OutputStream, text: string | Uint8Array): Promise<void> {
  const write = stream === 'stdout' ? stdoutWrite : process.stderr.write.bind(process.stderr);
  return new Promise((done) => {
    write(text, (error) => (error ? streamFailed(stream, error) : done()));
  });
}

/** Writes an output checked by checkOutput: to its stream (`-`, /dev/stdout, /dev/stderr), or to its file atomically (writeTextAtomic). */
export async function writeOutput(path: string, text: string | Uint8Array): Promise<void> {
  const stream = outputStream(path);
  if (stream) return writeStream(stream, text);
  return writeTextAtomic(path, text);
}

/** Writes JSON to an output (see writeOutput), as writeJsonAtomic does to a file. */
export function writeJsonOutput(path: string, data: unknown): Promise<void> {
  return writeOutput(path, `${JSON.stringify(data, null, 2)}\n`);
}

/** The standard stream whose open file `path` is (same device and inode: stdout redirected to it), or null. */
async function sameFileAsStream(path: string): Promise<OutputStream | null> {
  const at = await stat(path).catch(() => null);
  if (!at) return null;
  for (const [fd, stream] of [
    [1, 'stdout'],
    [2, 'stderr'],
  ] as const) {
    const open = await new Promise<Stats | null>((done) => fstat(fd, (error, stats) => done(error ? null : stats)));
    if (open && open.dev === at.dev && open.ino === at.ino) return stream;
  }
  return null;
}

/** GitHub's name for a step's summary file: <runner temp>/_runner_file_commands/step_summary_<guid> (actions/runner FileCommandManager.cs). */
const GITHUB_SUMMARY_NAME = /^step_summary_/;
/** What this tool's Markdown (report/markdown.ts, report/ab.ts) starts with. */
const OWN_SUMMARY_HEADING = '### gpu-transfer-perf';
/** Free space below which a summary is refused up front: far more than one summary (GitHub uploads at most 128 KiB a step). */
const SUMMARY_MIN_FREE_BYTES = 1024 * 1024;

/** How checkJobSummary reads the file system's free space (a test passes a full disk). */
export type FreeBytes = (dir: string) => Promise<number>;
const freeBytes: FreeBytes = async (dir) => {
  const fs = await statfs(dir);
  return fs.bavail * fs.bsize;
};

/**
 * Checks, before anything is measured, that the CI job summary file (`$GITHUB_STEP_SUMMARY`,
 * appended to, never replaced) is one: its folder exists (GitHub Actions creates the folder and
 * an empty file for each step, so a missing folder means the variable is wrong: nothing is
 * created), it is not inside the baselines folder, and its file system has room. An existing
 * path must be a regular file (not a folder, FIFO, device or dangling link) that is a job summary:
 *   - empty (how GitHub hands it to each step), or
 *   - named as GitHub names it (step_summary_<id>: other steps' tools may have appended their
 *     Markdown to it first), or
 *   - starting with this tool's heading (an earlier gtp command of the same step, or a local
 *     file gtp started).
 * Anything else (README.md, notes, a JSON file) is another kind of file: refused, with exit 2,
 * never appended to. --force does not change this: the variable comes from the environment, not
 * from the command line. A new file in an existing, writable folder is allowed.
 */
export async function checkJobSummary(path: string | null, options: Pick<OutputOptions, 'baselines'> = {}, free: FreeBytes = freeBytes): Promise<void> {
  if (path === null) return;
  const what = `GITHUB_STEP_SUMMARY=${path}`;
  const unset = 'unset it to write no job summary';
  // A summary on a standard stream would be a second output there (after `--json -`'s JSON, which
  // then no longer parses) or a file named `-`: GitHub Actions always names a file of its own.
  const stream = outputStream(path) ?? (await sameFileAsStream(path));
  if (stream) {
    throw new OutputPathError(
      `${what} names ${stream}, not a job summary file (GitHub Actions sets it to a file of its own); ${unset}${stream === 'stdout' ? ', or write the Markdown to stdout with --markdown -' : ''}`,
    );
  }
  const folder = dirname(resolve(path));
  const folderStats = await stat(folder).catch(() => null);
  if (!folderStats?.isDirectory()) {
    throw new OutputPathError(
      `${what}: its folder ${folder} does not exist (GitHub Actions creates it for each step); ${unset}, or name a file in an existing folder`,
    );
  }
  const real = await realFolder(folder);
  for (const dir of new Set([BASELINE_DIR, options.baselines ?? BASELINE_DIR])) {
    const protectedDir = await realFolder(dir);
    if (real === protectedDir || real.startsWith(protectedDir + sep)) throw new OutputPathError(`${what} is inside ${dir}/, the baselines folder; ${unset}`);
  }
  const link = await lstat(path).catch(() => null);
  const existing = await stat(path).catch(() => null);
  if (link && !existing) throw new OutputPathError(`${what} is a dangling symbolic link: appending would create its target; ${unset}`);
  if (existing && !existing.isFile()) {
    throw new OutputPathError(`${what} is ${entryKind(existing)}, not a job summary file; ${unset}, or name a file`);
  }
  if (existing && existing.size > 0 && !GITHUB_SUMMARY_NAME.test(basename(path))) {
    let head: string;
    try {
      head = (await readRegularFile(path)).subarray(0, OWN_SUMMARY_HEADING.length).toString('utf8');
    } catch (error) {
      throw new OutputPathError(`${what}: it exists and cannot be read (${errorCode(error)}), so it is not appended to; ${unset}`);
    }
    if (head !== OWN_SUMMARY_HEADING) {
      throw new OutputPathError(
        `${what} is an existing file that is not a job summary (not empty, not GitHub's step_summary_* file, not begun by gpu-transfer-perf): refusing to append to it; ${unset}, or name a new or empty file`,
      );
    }
  }
  if (existing) {
    await access(path, constants.W_OK).catch((error: unknown) => {
      throw new OutputPathError(`${what}: cannot append to it (${errorCode(error)}); ${unset}`);
    });
  } else {
    const probe = join(folder, `.gtp-write-probe-${process.pid}-${Date.now()}`);
    try {
      await writeFile(probe, '', { flag: 'wx' });
      await rm(probe, { force: true });
    } catch (error) {
      throw new OutputPathError(`${what}: cannot create a file in ${folder} (${errorCode(error)}); ${unset}`);
    }
  }
  const room = await free(folder).catch(() => Number.POSITIVE_INFINITY);
  if (room < SUMMARY_MIN_FREE_BYTES) throw new OutputPathError(`${what}: no space left on its file system (${room} bytes free); free some space, or ${unset}`);
}
