/**
 * What every command of the CLI shares, and the one reader of the environment.
 *
 * Each command declares its own flags, help and parse step in its own file (src/cli/<command>.ts,
 * a CommandSpec) and one line of src/cli/commands.ts lists it. This module keeps only what they
 * share: the shared option groups (run, compare, A/B, --force) with their help, the environment
 * readers (the only module that reads process.env: src/env-reads.test.ts), the parse machinery
 * (node:util parseArgs, the one-line errors) and the help renderer.
 *
 * A command file imports nothing from here: its types come from ./command-spec.ts, since this
 * module imports the registry for parseCommandLine (no cycle: .dependency-cruiser.mjs). Every
 * `vitest run` loads this module through the preset (src/vitest.ts), and with it every command
 * file: a command file keeps its heavy modules (runners, report renderers, the backends) behind
 * `await import()` in its runner.
 */
import { mkdtempSync, rmdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { BACKEND_CHOICES, BACKEND_NAMES, type BackendChoice } from '../backend/types.js';
import { BASELINE_DIR } from '../results/baseline.js';
import { DEFAULT_PROCESS_ALPHA, processCountRange } from '../results/process-verdict.js';
import { BROWSER_PATH_FLAG, BROWSER_TIMEOUT_FLAG, browserPathEnv, browserTimeoutOf } from './browser-flags.js';
import { type DataSources, defaultRunConfig, SCALES, type RunConfig } from '../run-config.js';
import type { FfmpegPaths } from '../data/kinetics/ffmpeg.js';
import type { AnyDatasetSource } from '../data/source.js';
import { DATASET_SOURCES } from '../data/sources.js';
import { exportFlagSpecs, exportPaths } from '../report/exporters.js';
import { UsageError } from './usage-error.js';
import { commandLine, FROM_SOURCES, type GtpCommand } from '../base/commands.js';
import { COMMANDS, type AnyCommandSpec, type CommandArgs } from './commands.js';
import { lostBytes, type ProcessArgvs, processArgvs } from './raw-argv.js';
import { displayName } from '../data/image-folder/names.js';
import { MAX_SHOWN, shown } from '../base/shown.js';
import { fsErrorCause } from '../base/regular-file.js';

// What parseCommandLine throws, in a module of its own: the command files throw it too.
export { UsageError } from './usage-error.js';

export type {
  AbArgs,
  BackendArgs,
  BrowserArgs,
  CommandSpec,
  CompareArgs,
  CountRange,
  DataArgs,
  EnvSpec,
  FlagScope,
  FlagSection,
  FlagSpec,
  ParsedLine,
  SharedGroup,
} from './command-spec.js';
import type { BackendArgs, BrowserArgs, CountRange, EnvSpec, FlagSpec, ParsedLine, SharedGroup } from './command-spec.js';

/** `--help` / `-h` of a command (topic), or of the CLI (`gtp --help`, `gtp help`: topic null). */
export interface HelpLine {
  readonly command: 'help';
  readonly topic: GtpCommand | null;
}

/** One parsed command line: help, or one registered command's arguments (each command file's Args type). */
export type CommandLine = HelpLine | CommandArgs;

const FORCE: FlagSpec = {
  name: 'force',
  type: 'boolean',
  usage: '  --force                 replace an existing output file of another kind (never a baseline)',
};

/** The shared groups' flags, in their help order. */
const GROUP_FLAGS: Readonly<Record<SharedGroup, readonly FlagSpec[]>> = {
  run: [
    {
      name: 'backend',
      type: 'string',
      usage: `  --backend auto|webgpu|wasm|cpu|tensorflow
                          default $PERF_BACKEND, else auto: webgpu when a WebGPU adapter
                          exists, else tensorflow when installed, else wasm`,
    },
    { name: 'scale', type: 'string', usage: "  --scale quick|full      quick: CI-sized samples (default); full: the article's sizes" },
  ],
  compare: [
    {
      name: 'baseline',
      type: 'string',
      usage: `  --baseline FILE         baseline to compare with (default: baselines/<profile>.json, or
                          <profile>.full.json for --scale full)`,
    },
    { name: 'baselines', type: 'string', usage: '  --baselines DIR         the folder of baselines instead of baselines/' },
    {
      name: 'allow-profile-mismatch',
      type: 'boolean',
      usage: `  --allow-profile-mismatch
                          compare with another hardware profile's baseline: ratio and exact
                          metrics only (the same device's from another CPU is judged without it)`,
    },
    {
      name: 'gate-timing',
      type: 'boolean',
      usage: `  --gate-timing           judge absolute times across processes too, as ratios are, and let
                          them fail the run (also PERF_GATE_TIMING=1)`,
    },
    ...exportFlagSpecs('compare'),
  ],
  ab: [
    {
      name: 'scenario',
      type: 'string',
      multiple: true,
      usage: `  --scenario ID           repeatable (default: speedup and dtypes in the harness's own repository,
                          speedup with ab's --browser; every perf file of each commit in your project)`,
    },
    {
      name: 'processes',
      type: 'string',
      usage: `  --processes K           processes per arm and look (default 8; at least 6, the fewest that
                          can decide at the first look, and at most 200; K more when inconclusive:
                          once in ab, up to twice in bisect); each arm is measured by its own
                          commit's harness`,
    },
    { name: 'ratios-only', type: 'boolean', usage: '  --ratios-only           judge speedups only, not absolute times' },
    { name: 'backend', type: 'string', usage: '  --backend NAME          as for perf: auto|webgpu|wasm|cpu|tensorflow (default $PERF_BACKEND, else auto)' },
  ],
  browser: [
    {
      name: 'browser',
      type: 'string',
      usage: `  --browser chromium      run the perf files of perf/browser/ (or perf's --dir) in headless Chromium
                          (vitest browser mode), --backend webgpu (default) or webgl; one
                          launch per process`,
    },
    BROWSER_PATH_FLAG,
    BROWSER_TIMEOUT_FLAG,
  ],
  force: [FORCE],
};

/** The variables the shared groups read, in their help form. */
const GROUP_ENV: Readonly<Record<SharedGroup, readonly EnvSpec[]>> = {
  run: [
    { usage: '  PERF_BACKEND            as --backend' },
    { usage: '  PERF_SCALE              as --scale' },
    { usage: '  PERF_REQUIRE_BACKEND=<name>\n                          fail unless that backend runs (CI sets webgpu)' },
  ],
  compare: [
    { usage: '  PERF_GATE_TIMING=1      as --gate-timing' },
    { usage: '  PERF_REQUIRE_BASELINE=1 no baseline for this profile is exit 3, not 0 with a note (CI sets it)' },
    {
      usage:
        '  GITHUB_STEP_SUMMARY     (set by GitHub Actions) the Markdown verdicts are appended to it;\n                          checked before anything is measured',
    },
  ],
  ab: [{ usage: '  PERF_BACKEND            as --backend' }],
  browser: [browserPathEnv('built-in')],
  force: [],
};

/** The variable every command reads (tempFolderProblem, checked before it runs), last in each command's help. */
const TMPDIR_ENV: EnvSpec = {
  usage:
    '  TMPDIR                  where temp folders are made (default /tmp); one where none can be made\n                          (a read-only file system) is exit 2, before anything runs',
};

/** Backend and scale from flags, else from PERF_BACKEND / PERF_REQUIRE_BACKEND / PERF_SCALE. */
function envBackendArgs(env: NodeJS.ProcessEnv, flags: { backend: string | null; scale: string | null }): BackendArgs {
  return {
    backend: backendChoice(env, flags.backend),
    requireBackend: env.PERF_REQUIRE_BACKEND ? oneOf('PERF_REQUIRE_BACKEND', env.PERF_REQUIRE_BACKEND, BACKEND_NAMES, 'webgpu') : null,
    scale: flagOrEnv('--scale', flags.scale, 'PERF_SCALE', env, SCALES, 'quick'),
  };
}

function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag} must be one of ${allowed.join('|')}, got '${shown(value)}'`);
}

/** A value from its flag, else from its environment variable; a bad value is blamed on whichever gave it. */
function flagOrEnv<T extends string>(flag: string, value: string | null, variable: string, env: NodeJS.ProcessEnv, allowed: readonly T[], fallback: T): T {
  if (value !== null) return oneOf(flag, value, allowed, fallback);
  return oneOf(variable, env[variable] || undefined, allowed, fallback);
}

const backendChoice = (env: NodeJS.ProcessEnv, flag: string | null): BackendChoice =>
  flagOrEnv('--backend', flag, 'PERF_BACKEND', env, BACKEND_CHOICES, 'auto');

/** Where the video tools are: FFMPEG_PATH / FFPROBE_PATH (unset or empty: null, looked up on PATH). */
export const videoToolsFromEnv = (env: NodeJS.ProcessEnv = process.env): FfmpegPaths => ({
  ffmpeg: env.FFMPEG_PATH || null,
  ffprobe: env.FFPROBE_PATH || null,
});

/** What a boolean environment variable may say (compared in lower case): the usual ways a CI writes yes and no. */
const BOOLEAN_VALUES: Readonly<Record<string, boolean>> = { '1': true, true: true, yes: true, on: true, '0': false, false: false, no: false, off: false };

/**
 * A boolean environment variable: 1/0, true/false, yes/no, on/off in any case (surrounding blanks
 * ignored); unset or empty gives `fallback`. Anything else is a usage error naming the variable:
 * a gate must never turn itself off because a CI wrote `true` where `1` was expected.
 */
export function envBoolean(env: NodeJS.ProcessEnv, name: string, fallback = false): boolean {
  const raw = env[name];
  const word = raw?.trim().toLowerCase() ?? '';
  if (word === '') return fallback;
  const value = BOOLEAN_VALUES[word];
  if (value === undefined) {
    throw new UsageError(
      `${name}=${JSON.stringify(raw)} is not a boolean: use 1/0, true/false, yes/no or on/off (any case), or leave it unset or empty for the default (${fallback ? 'on' : 'off'})`,
    );
  }
  return value;
}

/** GitHub Actions' job summary file ($GITHUB_STEP_SUMMARY), or null: not in CI, or set empty. */
const jobSummary = (env: NodeJS.ProcessEnv): string | null => env.GITHUB_STEP_SUMMARY || null;

/**
 * The run configuration of a plain `vitest run` (npm test's specs), where no command line is
 * parsed: every scenario, embedded data, backend and scale from the PERF_* variables, the video
 * tools from FFMPEG_PATH / FFPROBE_PATH.
 */
export function runConfigFromEnv(env: NodeJS.ProcessEnv = process.env): RunConfig {
  return { ...defaultRunConfig(envBackendArgs(env, { backend: null, scale: null })), videoTools: videoToolsFromEnv(env) };
}

/** What each data source's flags name, by source name; a combination a source refuses is a usage error. */
function dataOf(sources: readonly AnyDatasetSource[], str: (name: string) => string | null): DataSources {
  try {
    return Object.fromEntries(sources.map((s) => [s.name, s.given(str)]));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError((error as Error).message);
  }
}

/** A command's flags: its shared groups' and its own, in help order (a flag two groups share, e.g. --backend, once). */
export function flagsOf(spec: AnyCommandSpec, sources: readonly AnyDatasetSource[] = DATASET_SOURCES): FlagSpec[] {
  const all = [
    ...spec.options.flatMap((o) => (typeof o === 'string' ? GROUP_FLAGS[o] : [o])),
    ...(spec.sections ?? []).flatMap((s) => s.flags),
    ...(spec.dataSources ? sources.flatMap((s) => s.flags.map((f): FlagSpec => ({ name: f.name, type: 'string', usage: f.usage, scope: 'built-in' }))) : []),
  ];
  return all.filter((f, i) => all.findIndex((g) => g.name === f.name) === i);
}

const COMMAND_NAMES: readonly GtpCommand[] = COMMANDS.map((c) => c.name);

/** The registered command of this name. */
const specOf = (name: GtpCommand): AnyCommandSpec => COMMANDS.find((c) => c.name === name)!;

/**
 * Parses and validates a command line; throws UsageError on anything it does not know (the hint
 * under it: usageHint(commandOf(argv))).
 * `sources`: the data sets whose flags perf takes (the registered ones; a test passes its own).
 */
export function parseCommandLine(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  sources: readonly AnyDatasetSource[] = DATASET_SOURCES,
): CommandLine {
  const first = argv[0] && !argv[0].startsWith('-') ? argv[0] : undefined;
  // `gtp help [command]`, and `gtp --help` with no command named: the list of commands (or that command's help).
  if (first === 'help') return { command: 'help', topic: argv[1] ? oneOf('command', argv[1], COMMAND_NAMES, 'perf') : null };
  if (first === undefined && (argv.includes('--help') || argv.includes('-h'))) return { command: 'help', topic: null };
  const command = oneOf('command', first, COMMAND_NAMES, 'perf');
  const rest = argv[0] === command ? argv.slice(1) : [...argv];
  if (rest.includes('--help') || rest.includes('-h')) return { command: 'help', topic: command };
  return specOf(command).parse(parsedLine(specOf(command), rest, env, sources));
}

/** The command a command line names (none named: perf, the default), or undefined when it names no registered command. */
export function commandOf(argv: readonly string[]): GtpCommand | undefined {
  const first = argv[0] && !argv[0].startsWith('-') ? argv[0] : 'perf';
  return COMMAND_NAMES.find((name) => name === first);
}

/**
 * Why no temp folder can be made where this process makes its own (Node's os.tmpdir(): TMPDIR,
 * else TMP, else TEMP, else /tmp), or null. Every command makes one there, or a library it runs
 * does (vitest's module cache, the A/B's checkouts, the charts' font config, the doctor envelope's
 * staging), so a TMPDIR on a read-only file system is refused before anything runs, in one line
 * (exit 2; issue 51: vitest failed each scenario with `ENOENT ... mkdir` instead). Probed by
 * making and removing one folder.
 */
export function tempFolderProblem(env: NodeJS.ProcessEnv = process.env): string | null {
  const variable = (['TMPDIR', 'TMP', 'TEMP'] as const).find((v) => env[v]);
  const dir = variable ? env[variable]!.replace(/(.)\/+$/, '$1') : '/tmp';
  try {
    rmdirSync(mkdtempSync(join(dir, 'gtp-tmp-probe-')));
    return null;
  } catch (error) {
    const where = variable ? `${variable}=${shown(dir)}` : `the temp folder ${dir} (TMPDIR is unset)`;
    return `${where}: cannot make a temp folder in it (${fsErrorCause(error)}); every command makes its temp folders there (vitest's, the A/B's checkouts, the charts' font config): point TMPDIR at a folder you can write, e.g. TMPDIR=$HOME/tmp`;
  }
}

/**
 * Why `path` is not an existing folder ('no such folder', 'a file, not a folder', 'cannot be read
 * (ELOOP: a symbolic link in the path loops)'), or null; its type is read with lstat/stat only (a
 * FIFO is never opened).
 */
export function folderProblem(path: string): string | null {
  try {
    return statSync(path).isDirectory() ? null : 'not a folder';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT'
      ? `no such folder (${resolve(path)})`
      : code === 'ENOTDIR'
        ? 'a path through a file, not a folder'
        : `cannot be read (${fsErrorCause(error)})`;
  }
}

/** The most a count flag (--processes, --deadline) takes. */
export const MAX_COUNT = 200;

/**
 * A count flag's value (`--processes 8`): a whole number in `range` (default 1 to MAX_COUNT).
 * Anything else is one usage error that states the whole range, the same for every value
 * refused: `ab --processes 0` and `--processes 1` both say "from 6 to 200", not one then the other.
 */
export function countOf(name: string, text: string, range: CountRange = {}): number {
  const least = range.least ?? 1;
  const k = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if ((k >= least && k <= MAX_COUNT) || (range.one !== undefined && k === 1)) return k;
  const one = range.one !== undefined && least > 1 ? `1 (${range.one}) or ` : '';
  const why = range.why ? ` (${range.why})` : '';
  throw new UsageError(`--${name} must be ${one}a whole number from ${least} to ${MAX_COUNT}${why}, got '${shown(text)}'`);
}

// How a message quotes a value (cut after MAX_SHOWN characters): src/base/shown.ts, shared by every layer.
export { shown } from '../base/shown.js';
/** A message with every run of more than MAX_SHOWN non-blank characters (quotes excepted) (a value echoed by any layer) cut as shown() cuts it. */
export const withLongValuesCut = (message: string): string => message.replace(new RegExp(`[^\\s'"]{${MAX_SHOWN + 1},}`, 'g'), shown);

/**
 * A flag that takes one value, given twice, is refused naming it: parseArgs keeps the last
 * (`--json a --json b` wrote b only, silently). Repeatable flags (`--scenario`) say so in their help.
 */
function refuseRepeats(
  command: GtpCommand,
  tokens: ReadonlyArray<{ kind: string; name?: string; value?: string | undefined }>,
  options: ParseArgsConfig['options'],
): void {
  const given = new Map<string, string[]>();
  for (const t of tokens) {
    if (t.kind !== 'option' || !t.name || options?.[t.name]?.multiple) continue;
    given.set(t.name, [...(given.get(t.name) ?? []), t.value ?? '']);
  }
  for (const [name, values] of given) {
    if (values.length < 2) continue;
    const which = values.every((v) => v === '') ? '' : ` (${values.map((v) => shown(v)).join(', ')})`;
    throw new UsageError(`${command}: --${name} is given ${values.length} times${which}; it takes one value: give it once`);
  }
}

/** A parsed token as refuseLostBytes reads it (node:util parseArgs's tokens). */
type ArgToken = { kind: string; name?: string; value?: string | undefined; index: number; inlineValue?: boolean | undefined };

/**
 * A flag value or an argument given as bytes that are not valid UTF-8 is refused, naming the
 * flag and showing the bytes (src/cli/raw-argv.ts): Node read it with U+FFFD in their place, so
 * it would name another file (`--out $'x\xff'` wrote `x\uFFFD`; an existing `$'\xff.json'` was ENOENT).
 * `argvs`: the command lines as bytes (a test passes its own); read only when a value holds U+FFFD.
 */
export function refuseLostBytes(
  command: GtpCommand,
  rest: readonly string[],
  tokens: readonly ArgToken[],
  argvs: () => ProcessArgvs | null = processArgvs,
): void {
  let read: ProcessArgvs | null | undefined;
  for (const t of tokens) {
    if ((t.kind !== 'option' && t.kind !== 'positional') || typeof t.value !== 'string' || !t.value.includes('\uFFFD')) continue;
    // The argument that held the value: `--out=V` is one, `--out V` two.
    const arg = rest[t.kind === 'option' && t.inlineValue === false ? t.index + 1 : t.index] ?? t.value;
    if (read === undefined) read = argvs();
    const lost = lostBytes(arg, read);
    if (lost === null) continue;
    const which = t.kind === 'option' ? `--${t.name}` : 'the argument';
    const given = 'bytes' in lost ? shown(displayName(lost.bytes).replace(/^--[a-z-]+=/, '')) : shown(t.value);
    const why =
      'bytes' in lost
        ? 'not valid UTF-8 (each \\xNN is a byte); Node reads the command line as UTF-8, with U+FFFD for such bytes, so it would name another file'
        : `holds U+FFFD, which is what Node puts for bytes that are not valid UTF-8, and ${lost.unknown}`;
    throw new UsageError(`${command}: ${which} ${given}: ${why}; rename the file, or link to it, under a valid UTF-8 name (nothing was read or written)`);
  }
}

/** The flags of `rest` parsed against `spec`'s, with the shared parse steps bound to `env`. */
function parsedLine(spec: AnyCommandSpec, rest: readonly string[], env: NodeJS.ProcessEnv, sources: readonly AnyDatasetSource[]): ParsedLine {
  const command = spec.name;
  const options: ParseArgsConfig['options'] = Object.fromEntries(
    flagsOf(spec, sources).map((f) => [f.name, f.multiple ? { type: f.type, multiple: true } : { type: f.type }]),
  );
  const parsed = (() => {
    try {
      return parseArgs({ args: [...rest], allowPositionals: true, strict: true, options, tokens: true });
    } catch (error) {
      // Node's message for a value starting with '-' runs to three lines; one is enough.
      const ambiguous = /^Option '(--[a-z-]+)[^']*' argument is ambiguous/.exec((error as Error).message);
      if (ambiguous) throw new UsageError(`${command}: ${ambiguous[1]} needs a value; a value starting with '-' goes as ${ambiguous[1]}=VALUE`);
      throw new UsageError(`${command}: ${(error as Error).message.split('\n')[0]}`);
    }
  })();
  refuseRepeats(command, parsed.tokens, options);
  refuseLostBytes(command, rest, parsed.tokens);
  const values = parsed.values as Record<string, string | string[] | boolean | undefined>;
  const str = (name: string): string | null => {
    const v = values[name];
    if (v === '') throw new UsageError(`--${name} needs a value`);
    return typeof v === 'string' ? v : null;
  };
  const folder = (name: string): string | null => {
    const v = str(name);
    const problem = v === null ? null : folderProblem(v);
    if (problem) throw new UsageError(`--${name} ${v}: ${problem}; name an existing folder`);
    return v;
  };
  const flag = (name: string): boolean => values[name] === true;
  const many = (name: string): string[] => (values[name] as string[] | undefined) ?? [];
  const count = (name: string, fallback: number, range: CountRange = {}): number => {
    const v = str(name);
    return v === null ? fallback : countOf(name, v, range);
  };
  // The browser `--browser` launches: the flag, else GTP_BROWSER_PATH (unset or empty: neither).
  const browserPath = (): BrowserArgs['browserPath'] => {
    const flagged = str('browser-path');
    if (flagged !== null) return { path: flagged, from: '--browser-path' };
    return env.GTP_BROWSER_PATH ? { path: env.GTP_BROWSER_PATH, from: 'GTP_BROWSER_PATH' } : null;
  };
  const max = spec.positionals ?? 0;
  if (parsed.positionals.length > max) throw new UsageError(`unexpected arguments: ${parsed.positionals.slice(max).join(' ')}`);
  return {
    str,
    folder,
    flag,
    many,
    count,
    choice: (name, value, allowed, fallback) => oneOf(name, value ?? undefined, allowed, fallback),
    positionals: parsed.positionals,
    run: () => envBackendArgs(env, { backend: str('backend'), scale: str('scale') }),
    compare: () => ({
      baseline: str('baseline'),
      // Named, it must exist: a missing folder would judge the run against no baseline (exit 0).
      baselines: folder('baselines') ?? BASELINE_DIR,
      allowProfileMismatch: flag('allow-profile-mismatch'),
      // Both read even when the flag is given: a bad value is reported, not hidden by the flag.
      gateTiming: envBoolean(env, 'PERF_GATE_TIMING') || flag('gate-timing'),
      requireBaseline: envBoolean(env, 'PERF_REQUIRE_BASELINE'),
      exports: exportPaths('compare', str),
      force: flag('force'),
      jobSummary: jobSummary(env),
    }),
    ab: () => ({
      scenarios: many('scenario'),
      // Both arms are judged per process only: from the fewest that can decide at the first look (issue 51).
      processes: count('processes', 8, processCountRange(DEFAULT_PROCESS_ALPHA, false)),
      json: str('json'),
      force: flag('force'),
      backend: backendChoice(env, str('backend')),
      ratiosOnly: flag('ratios-only'),
    }),
    data: () => dataOf(sources, str),
    videoTools: () => videoToolsFromEnv(env),
    browserPath,
    browser: () => ({ browser: str('browser'), browserPath: browserPath(), browserTimeout: browserTimeoutOf(str('browser-timeout')) }),
    jobSummary: () => jobSummary(env),
    ldLibraryPath: () => env.LD_LIBRARY_PATH || null,
  };
}

/** How to ask for the list of commands where it runs: `npm run gtp -- --help` here, `npx gtp help` where the package is installed. */
export const overviewHelpCommand = (sources: boolean = FROM_SOURCES): string => (sources ? 'npm run gtp -- --help' : 'npx gtp help');

/** The line under a usage error: where that command's flags are listed (or the commands, for an unknown one). */
export function usageHint(command: GtpCommand | undefined, sources: boolean = FROM_SOURCES): string {
  if (command === undefined) return `Run \`${overviewHelpCommand(sources)}\` for the commands.`;
  return `Run \`${commandLine(command, '--help', sources)}\` for the flags of ${sources ? command : `gtp ${command}`}.`;
}

/** A help line's text with its scope said after it (the first line only: the flag's own line). */
const marked = (usage: string, note: string): string => {
  const [first, ...more] = usage.split('\n');
  return [`${first} ${note}`, ...more].join('\n');
};

/**
 * `<command> --help` as shown where it runs (`sources`: this repository's npm scripts; else
 * `npx gtp <command>`, where the flags that act only on the built-in article scenarios get a
 * heading of their own): usage line, what it does, its flags, the environment it reads, its
 * exit codes.
 */
export function commandHelp(spec: AnyCommandSpec, sources: boolean = FROM_SOURCES, datasets: readonly AnyDatasetSource[] = DATASET_SOURCES): string {
  const shown = (flags: readonly FlagSpec[]) =>
    flags.filter((f) => f.usage !== '').map((f) => (sources && f.scope === 'own-project' ? marked(f.usage, '(in a project of your own only)') : f.usage));
  const main = spec.options.flatMap((o) => (typeof o === 'string' ? GROUP_FLAGS[o] : [o]));
  const builtIn = [...main.filter((f) => f.scope === 'built-in'), ...(spec.dataSources ? datasets.flatMap((s) => s.flags) : [])];
  const lines = [`Usage: ${commandLine(spec.name, spec.synopsis, sources)}`, ...spec.about.map((l) => `  ${l}`), '', 'Options:'];
  lines.push(...shown(main.filter((f) => f.scope !== 'built-in')));
  for (const section of spec.sections ?? []) lines.push('', `${section.heading}:`, ...shown(section.flags));
  if (builtIn.length > 0) {
    lines.push('', sources ? 'Data of the built-in scenarios:' : "Built-in scenarios only (the article's perf files; your own perf files do not read these):");
    lines.push(...builtIn.map((f) => f.usage));
    if (spec.dataSources) lines.push('                          (without these: the committed fixtures: the mnist package, fixtures/coco, fixtures/kinetics)');
  }
  const env = [...spec.options.flatMap((o) => (typeof o === 'string' ? GROUP_ENV[o] : [])), ...spec.env, TMPDIR_ENV];
  if (env.length > 0) {
    lines.push('', 'Environment:');
    for (const e of env.filter((e, i) => env.findIndex((f) => f.usage === e.usage) === i))
      lines.push(!sources && e.scope === 'built-in' ? marked(e.usage, '(built-in scenarios only)') : e.usage);
  }
  lines.push('', 'Exit codes:', ...spec.exits.map((l) => `  ${l}`));
  return lines.join('\n');
}

/** `gtp --help` / `gtp help`: every registered command in one line, and where each one's flags are. */
export function commandsHelp(sources: boolean = FROM_SOURCES, commands: readonly AnyCommandSpec[] = COMMANDS): string {
  // One column for both forms, so that the descriptions stand where they stand in the other.
  const head = (c: AnyCommandSpec, form: boolean) => commandLine(c.name, c.synopsis.replace(/ ?\[options\]$/, ''), form);
  const width = Math.max(...commands.flatMap((c) => [head(c, true).length, head(c, false).length])) + 2;
  return [
    sources
      ? 'Usage (in this repository; installed as a package the same commands are `npx gtp <command>`):'
      : 'Usage (gpu-transfer-perf installed in your project; run from its root, where perf/ and baselines/ are):',
    ...commands.map((c) => `  ${head(c, sources).padEnd(width)}${c.summary}`),
    '',
    sources
      ? `Add -- --help to any of them (${commandLine('ab', '--help', true)}) for its flags, environment and exit codes.`
      : 'npx gtp <command> --help for its flags, environment and exit codes.',
  ].join('\n');
}

/** What `--help` prints: one command's help, or the list of commands. */
export const helpText = (topic: GtpCommand | null, sources: boolean = FROM_SOURCES): string =>
  topic === null ? commandsHelp(sources) : commandHelp(specOf(topic), sources);
