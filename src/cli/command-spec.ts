/**
 * The types a command file declares itself with (a CommandSpec: its flags, help, parse step and
 * runner) and the shared argument groups' shapes. Types only, in a module of their own: a command
 * file imports these, args.ts imports the registry of command files (src/cli/commands.ts), so
 * neither imports the other's importer (no cycle, .dependency-cruiser.mjs).
 */
import type { BackendChoice, BackendName } from '../backend/types.js';
import type { GtpCommand } from '../base/commands.js';
import type { FfmpegPaths } from '../data/kinetics/ffmpeg.js';
import type { DataSources, Scale } from '../run-config.js';

/** How a run is compared with a baseline (perf and compare). */
export interface CompareArgs {
  /** Baseline file; null: <baselines>/<profile>.json of the run's profile and scale. */
  readonly baseline: string | null;
  /** The folder of baselines (--baselines DIR; default baselines/ of the working directory). */
  readonly baselines: string;
  readonly allowProfileMismatch: boolean;
  readonly gateTiming: boolean;
  /** A run with no baseline to judge it exits 3 instead of 0 (PERF_REQUIRE_BASELINE=1; CI sets it). */
  readonly requireBaseline: boolean;
  /** Each export format's file (--markdown FILE, --json FILE: EXPORTERS' flags), by flag name; null: not written. */
  readonly exports: Readonly<Record<string, string | null>>;
  /** --force: replace an existing output file of another kind (never a baseline). */
  readonly force: boolean;
  /** The CI job summary file the Markdown verdicts are appended to ($GITHUB_STEP_SUMMARY); null outside GitHub Actions. */
  readonly jobSummary: string | null;
}

export interface BackendArgs {
  readonly backend: BackendChoice;
  readonly requireBackend: BackendName | null;
  readonly scale: Scale;
}

/** Where the data sets come from (perf), by source name (DATASET_SOURCES): null means the embedded default (package, fixtures). */
export interface DataArgs {
  readonly data: DataSources;
}

/** What ab and bisect both take (the 'ab' group): each probe of a bisect is an A/B. */
export interface AbArgs {
  readonly scenarios: readonly string[];
  readonly processes: number;
  readonly json: string | null;
  readonly force: boolean;
  readonly backend: BackendChoice;
  /** --ratios-only: judge speedups, not absolute times (CI's gate). */
  readonly ratiosOnly: boolean;
}

/** Where a browser run's pages run (the 'browser' group: perf and ab). */
export interface BrowserArgs {
  /** --browser NAME: run the perf files in this browser's page (null: in Node). */
  readonly browser: string | null;
  /** --browser-path PATH, else GTP_BROWSER_PATH: the browser's executable (null: the system's). */
  readonly browserPath: { readonly path: string; readonly from: '--browser-path' | 'GTP_BROWSER_PATH' } | null;
  /** --browser-timeout S: a browser process's deadline in seconds (null: DEFAULT_BROWSER_TIMEOUT_S). */
  readonly browserTimeout: number | null;
}

/** Where a flag acts: everywhere (the default), only on the built-in article scenarios, or only in a project of your own. */
export type FlagScope = 'built-in' | 'own-project';

/** One flag of a command: its parseArgs type and its lines in the help. */
export interface FlagSpec {
  /** The flag without its dashes: 'out'. */
  readonly name: string;
  readonly type: 'string' | 'boolean';
  /** Repeatable: its values come as a list. */
  readonly multiple?: boolean;
  /** Its lines in the help, as printed (indented two, the description from column 27, no trailing newline); '' for a flag described with another's line. */
  readonly usage: string;
  /** Acts only on the built-in article scenarios (shown under its own heading where the package is installed), or only in your own project. */
  readonly scope?: FlagScope;
}

/** Option groups several commands share, declared here once (flags, help, parse step). */
export type SharedGroup = 'run' | 'compare' | 'ab' | 'browser' | 'force';

/** A block of flags with a heading of its own in the help (perf's questions). */
export interface FlagSection {
  readonly heading: string;
  readonly flags: readonly FlagSpec[];
}

/** An environment variable a command reads: its help line (as printed, indented two), and where it acts. */
export interface EnvSpec {
  readonly usage: string;
  readonly scope?: FlagScope;
}

/**
 * The values a count flag takes beyond the default 1 to 200 (ParsedLine.count): from `least` to
 * 200, and 1 as well where `one` says what a single one means. Every value outside it is refused
 * with the same line, which states the whole range once (`ab --processes 0` and `1` alike).
 */
export interface CountRange {
  /** The smallest count taken besides 1 (default 1). */
  readonly least?: number;
  /** 1 is taken too, below `least`: what it means ('one process, judged with a prediction interval'). */
  readonly one?: string;
  /** Why nothing below `least` is taken, in a few words (said in the refusal). */
  readonly why?: string;
}

/** What a command's parse step is handed: its flags' values, its positionals, and the shared groups' parse steps. */
export interface ParsedLine {
  /** A string flag's value (null: not given); an empty value is a usage error. */
  str(name: string): string | null;
  /** A string flag naming a folder that is read (null: not given); a path that is not an existing folder is a usage error, before anything runs. */
  folder(name: string): string | null;
  /** A boolean flag. */
  flag(name: string): boolean;
  /** A repeatable string flag's values (none: []). */
  many(name: string): string[];
  /** A whole number from 1 (or `range.least`) to 200 (a process count), or `fallback` when not given; any other value is one usage error stating the whole range. */
  count(name: string, fallback: number, range?: CountRange): number;
  /** One of `allowed`, or `fallback` when not given; anything else is a usage error naming `flag`. */
  choice<T extends string>(flag: string, value: string | null, allowed: readonly T[], fallback: T): T;
  readonly positionals: readonly string[];
  /** The 'run' group: backend and scale from the flags, else PERF_BACKEND / PERF_REQUIRE_BACKEND / PERF_SCALE. */
  run(): BackendArgs;
  /** The 'compare' group (with --force and $GITHUB_STEP_SUMMARY). */
  compare(): CompareArgs;
  /** The 'ab' group. */
  ab(): AbArgs;
  /** The data sources' flags (a command with `dataSources`). */
  data(): DataSources;
  /** FFMPEG_PATH / FFPROBE_PATH. */
  videoTools(): FfmpegPaths;
  /** --browser-path, else GTP_BROWSER_PATH, with where it came from (null: neither). */
  browserPath(): BrowserArgs['browserPath'];
  /** The 'browser' group: --browser, --browser-path (else GTP_BROWSER_PATH) and --browser-timeout. */
  browser(): BrowserArgs;
  /** $GITHUB_STEP_SUMMARY. */
  jobSummary(): string | null;
  /** LD_LIBRARY_PATH (doctor's CUDA library check). */
  ldLibraryPath(): string | null;
}

/**
 * A command of the CLI, declared in its own file (src/cli/<name>.ts) and listed once in
 * src/cli/commands.ts: its flags and help, its parse step and its runner.
 */
export interface CommandSpec<Args extends { readonly command: GtpCommand }> {
  readonly name: Args['command'];
  /** One line for `gtp --help`. */
  readonly summary: string;
  /** What follows the command on its usage line: '[RUN.json] [options]'. */
  readonly synopsis: string;
  /** Lines under the usage line: what it does, in more words than the summary. */
  readonly about: readonly string[];
  /** Its flags in the help's Options section: shared groups by name (declared here) and its own. */
  readonly options: readonly (FlagSpec | SharedGroup)[];
  /** More flags under headings of their own. */
  readonly sections?: readonly FlagSection[];
  /** It takes the data sources' flags (DATASET_SOURCES: --mnist-dir, ...), which act on the built-in scenarios only. */
  readonly dataSources?: boolean;
  /** How many positional arguments it takes (default none). */
  readonly positionals?: number;
  /** The environment variables it reads, beyond those of its shared groups. */
  readonly env: readonly EnvSpec[];
  /** Its exit codes, one line each ('0 ...'). */
  readonly exits: readonly string[];
  /** Its arguments from the parsed flags; throws UsageError on a value or combination it refuses. */
  parse(line: ParsedLine): Args;
  /** Runs it; resolves to the exit code. */
  run(args: Args): Promise<number>;
}
