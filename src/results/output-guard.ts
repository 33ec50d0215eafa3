import { readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { BASELINE_DIR } from './baseline.js';
import { ensureDir } from './storage.js';

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
  | 'chart';

/** 'a run record', 'an HTML report'. */
const withArticle = (kind: string) => `${/^([AEIOU]|HTML)/i.test(kind) ? 'an' : 'a'} ${kind}`;

const jsonObject = (text: string): Record<string, unknown> | null => {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

/** A run record or baseline: versioned, with metrics and a profile (src/results/schema.ts). */
const isRecordLike = (j: Record<string, unknown> | null) =>
  j !== null && typeof j.schemaVersion === 'number' && Array.isArray(j.metrics) && typeof j.profile === 'object';
/** A baseline is a record with `accepted` (src/results/baseline.ts). */
const isBaseline = (j: Record<string, unknown> | null) => isRecordLike(j) && typeof j?.accepted === 'object';

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
};

/** What an existing file that is not `kind` looks like, for the refusal message. */
function describeForeign(content: Buffer): string {
  const j = jsonObject(content.toString('utf8'));
  if (isBaseline(j)) return 'a baseline';
  for (const [kind, recognize] of Object.entries(RECOGNIZERS)) if (recognize(content)) return withArticle(kind);
  if (j) return 'another JSON file';
  return content.length === 0 ? 'an empty file' : 'another file';
}

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error);

/** Fails now, not after the run, when a file cannot be created in `dir` (made if missing). */
export async function checkWritableDir(dir: string, what: string): Promise<void> {
  const probe = join(dir, `.gtp-write-probe-${process.pid}-${Date.now()}`);
  try {
    await ensureDir(dir);
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
 * Checks, before any measuring, that `target` may be written: not a folder, its folder
 * writable, and any file already there of the same kind (or --force); never a baseline.
 */
export async function checkOutput(target: OutputTarget, options: OutputOptions): Promise<void> {
  const { path, kind, flag } = target;
  const what = `${flag} ${path}`;
  const folder = await realFolder(dirname(path));
  for (const dir of new Set([BASELINE_DIR, options.baselines ?? BASELINE_DIR])) {
    const protectedDir = await realFolder(dir);
    if (folder === protectedDir || folder.startsWith(protectedDir + sep)) {
      throw new OutputPathError(`${what} is inside ${dir}/, the baselines folder: baselines change only through perf:baseline`);
    }
  }
  const existing = await stat(path).catch(() => null);
  if (existing?.isDirectory())
    throw new OutputPathError(`${what} is a directory; name a file, e.g. ${join(path, kind === 'HTML report' ? 'report.html' : 'out.json')}`);
  await checkWritableDir(dirname(path), what);
  if (!existing) return;
  let content: Buffer;
  try {
    content = await readFile(path);
  } catch (error) {
    throw new OutputPathError(`${what}: it exists and cannot be read (${errorCode(error)}), so it is not replaced; choose another path`);
  }
  if (isBaseline(jsonObject(content.toString('utf8')))) {
    throw new OutputPathError(`${what} is a baseline: refusing to overwrite it (baselines change only through perf:baseline)`);
  }
  if (RECOGNIZERS[kind](content) || options.force) return;
  throw new OutputPathError(
    `${what} exists and is ${describeForeign(content)}, not ${withArticle(kind)}: refusing to overwrite it; choose another path, or pass --force to replace it`,
  );
}

/** Checks every target (see checkOutput); two targets naming the same file are refused too. */
export async function checkOutputs(targets: ReadonlyArray<OutputTarget | null>, options: OutputOptions): Promise<void> {
  const seen = new Map<string, OutputTarget>();
  for (const target of targets) {
    if (!target) continue;
    const key = resolve(target.path);
    const other = seen.get(key);
    if (other) throw new OutputPathError(`${target.flag} ${target.path} is also ${other.flag}: give each output its own file`);
    seen.set(key, target);
    await checkOutput(target, options);
  }
}
