import { parseArgs, type ParseArgsConfig } from 'node:util';
import { BACKEND_CHOICES, BACKEND_NAMES, type BackendChoice, type BackendName } from '../backend/types.js';
import { parseShape, parseSize, ShapeParseError } from '../data/shape.js';
import { IMAGE_RESAMPLES, PIL_MAX_IMAGE_PIXELS } from '../data/image-folder/options.js';
import { BASELINE_DIR } from '../results/baseline.js';
import { HISTORY_DIR } from '../history/store.js';
import type { HistoryArgs } from './history.js';
import { type DataSources, defaultRunConfig, SCALES, type Question, type QuestionNormalization, type RunConfig, type Scale } from '../run-config.js';
import type { FfmpegPaths } from '../data/kinetics/ffmpeg.js';
import type { AnyDatasetSource } from '../data/source.js';
import { DATASET_SOURCES } from '../data/sources.js';
import { EXPORTERS, exportFlags } from '../report/exporters.js';
import { WIRE_DTYPES, type WireDtype } from '../transfer/wire-dtypes.js';
import { UsageError } from './usage-error.js';
import { FROM_SOURCES } from '../base/commands.js';

// What parseCommandLine throws, in a module of its own: the command files throw it too (history.ts, whose HistoryArgs this file takes).
export { UsageError } from './usage-error.js';

const COMMANDS = ['perf', 'doctor', 'compare', 'baseline', 'calibrate', 'report', 'ab', 'bisect', 'history'] as const;
type Command = (typeof COMMANDS)[number];

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

/** What perf:ab and perf:bisect both take (AB_OPTIONS): each probe of a bisect is an A/B. */
export interface AbArgs {
  readonly scenarios: readonly string[];
  readonly processes: number;
  readonly json: string | null;
  readonly force: boolean;
  readonly backend: BackendChoice;
  /** --ratios-only: judge speedups, not absolute times (CI's gate). */
  readonly ratiosOnly: boolean;
}

export type CommandLine =
  | { readonly command: 'help' }
  | ({
      readonly command: 'perf';
      readonly out: string | null;
      readonly scenarios: readonly string[];
      readonly processes: number;
      /** --history DIR: also append the run record to DIR/<profile>/ (null: not). */
      readonly history: string | null;
      /** A question asked with flags (--shape, --image-folder) instead of perf files; null for none. */
      readonly question: Question | null;
      /** The folder of the project's perf files (default perf/). */
      readonly dir: string | null;
      /** --verbose: every table on the console, and vitest's per-test lines while it runs. */
      readonly verbose: boolean;
      /** Where ffmpeg and ffprobe are (FFMPEG_PATH / FFPROBE_PATH). */
      readonly videoTools: FfmpegPaths;
    } & DataArgs &
      BackendArgs &
      CompareArgs)
  | ({
      readonly command: 'ab';
      readonly base: string;
      readonly head: string | null;
      readonly markdown: string | null;
      /** The CI job summary file the verdicts are appended to ($GITHUB_STEP_SUMMARY); null outside GitHub Actions. */
      readonly jobSummary: string | null;
    } & AbArgs)
  | ({
      readonly command: 'bisect';
      readonly good: string;
      readonly bad: string;
      /** --metric ID: the metric that moved (default: any judged ratio or time metric). */
      readonly metric: string | null;
    } & AbArgs)
  | ({
      readonly command: 'doctor';
      readonly expectGpu: boolean;
      readonly json: string | null;
      readonly quick: boolean;
      readonly force: boolean;
      readonly ldLibraryPath: string | null;
      /** --sysfs-root DIR: judge a copy of a machine's /sys (fixtures/sysfs/<name>/): physical verdicts only, nothing measured. */
      readonly sysfsRoot: string | null;
      /** --write-envelope FILE: make the profile's envelope from --processes N doctor processes, or from the --from reports. */
      readonly writeEnvelope: string | null;
      readonly from: readonly string[];
      readonly processes: number;
    } & BackendArgs)
  | {
      readonly command: 'report';
      readonly run: string | null;
      readonly baseline: string | null;
      readonly baselines: string;
      readonly out: string | null;
      readonly force: boolean;
    }
  | ({
      readonly command: 'calibrate';
      /** --processes K; null: not given (the command's own default: 60 per condition here, 20 per arm in a user's project). */
      readonly processes: number | null;
      /** --write-tolerances: write the smallest supported tolerances to baselines/tolerances.json (a user's project). */
      readonly writeTolerances: boolean;
    } & BackendArgs)
  | ({ readonly command: 'compare'; readonly run: string | null } & CompareArgs)
  | {
      readonly command: 'baseline';
      readonly run: string | null;
      readonly target: string | null;
      readonly baselines: string;
      readonly allowDirty: boolean;
      readonly allowPartial: boolean;
      /** Replace only the run's metrics in the existing baseline, keep the others. */
      readonly merge: boolean;
      /** The history folder the accepted run's record is appended to (default history/). */
      readonly history: string;
    }
  | ({ readonly command: 'history' } & HistoryArgs);

const SOURCE_USAGE = `Usage (in this repository; installed as a package the same commands are
\`npx gtp perf\`, \`npx gtp ab\`, ... in the project that depends on it):
  npm run perf -- [options]              run the scenarios, write a run record and its HTML report,
                                         compare it with this profile's baseline, print one
                                         line per scenario and what failed (--verbose: every table)
  npm run perf:compare -- [RUN.json]     compare a stored run (default: the latest in results/)
  npm run perf:baseline -- [RUN.json]    accept a run as its profile's new baseline
  npm run perf:ab -- --base REF          A/B: processes of REF and of the working tree (or --head
                                         REF) alternated on this machine, judged per process
  npm run perf:bisect -- --good REF --bad REF
                                         the first commit between them whose metric is worse
                                         (an A/B against the good end per probe)
  npm run perf:calibrate -- [--backend]  how far values move between processes on this machine and
                                         what the verdicts can tell apart (in your project: an
                                         A/A of your perf files, a tolerance per metric)
  npm run doctor -- [options]            check that the backend and device are set up right
  npm run report -- [RUN.json]           rebuild a run's HTML report (default: the latest run)
  npm run perf:history -- [options]      trends and change points of the run records in history/

Run options (perf, doctor, calibrate):
  --backend auto|webgpu|wasm|cpu|tensorflow
                          default $PERF_BACKEND, else auto: webgpu when a WebGPU adapter
                          exists, else tensorflow when installed, else wasm
  --scale quick|full      quick: CI-sized samples (default); full: the article's sizes
  --out FILE              run record path (default: results/<time>-<profile>.json)
  --scenario ID           only this scenario; repeatable: an id (speedup), a section number
                          (6) or a file name (06-speedup.bench.ts)
  --processes K           run the scenarios in K separate processes, one after another; ratio
                          and time metrics keep one value per process (default 1)
${DATASET_SOURCES.flatMap((s) => s.flags.map((f) => `${f.usage}\n`)).join('')}                          (without these: the committed fixtures in fixtures/coco, fixtures/kinetics)
  --dir DIR               run the perf files of DIR instead of perf/ (your own project's)
  --verbose               print every table (and vitest's per-test lines while it runs);
                          by default one line per scenario and only what failed

Your own sizes, no code (perf; instead of the perf files):
  --shape NxHxWxC         both strategies at this shape of seeded random pixels, e.g.
                          16x512x512x3: bytes, speedup, stages and the device limit
  --batch N[,N...]        with --shape: these batch sizes instead of N (with --image-folder:
                          the batch size, default 16)
  --dtype T[,T...]        with --shape: also compare these wire types (uint8,int8,float16,float32)
  --image-folder DIR      a folder in torchvision's ImageFolder layout DIR/<class>/<image>,
                          decoded by sharp, end to end as the COCO scenario
  --size HxW              with --image-folder: the size images are fitted to (default 224x224)
  --fit resize|letterbox  with --image-folder: stretch, or keep the aspect and pad (default resize)
  --resample antialias|bilinear-no-antialias
                          with --image-folder: torchvision's Resize on a PIL image (PIL bilinear
                          with antialias, the default), or plain bilinear without antialias
  --max-pixels N          with --image-folder: skip images of more pixels, read from the header
                          before decoding (default 89478485, PIL's MAX_IMAGE_PIXELS)
  --mean R,G,B --std R,G,B
                          with --shape (3 channels) or --image-folder: your normalization on the
                          0-255 scale (torchvision's Normalize values times 255); default
                          ImageNet's, 123.675,116.28,103.53 and 58.395,57.12,57.375

Doctor options:
  --expect-gpu            fail on a software adapter or a CPU fallback
  --quick                 fewer sizes and repeats
  --json FILE             write the checks and figures as JSON
  --sysfs-root DIR        judge a copy of a machine's /sys (e.g. fixtures/sysfs/<name>): the
                          physical verdicts (link, path minimum, NUMA, adapter match) only
  --write-envelope FILE   make this profile's envelope (baselines/<profile>.doctor.json): doctor
                          in --processes N processes (default 8), or from --from PATH reports
  --from PATH             with --write-envelope: a doctor report, or a folder of doctor*.json
                          (a kit run's results/<time>/); repeatable

Report options:
  --baseline FILE         judge the run against this baseline (default: its profile's)
  --out FILE              where the HTML goes (default: beside the run record, .html)

Compare options (perf, compare):
  --baseline FILE         baseline to compare with (default: baselines/<profile>.json, or
                          <profile>.full.json for --scale full)
  --baselines DIR         the folder of baselines instead of baselines/ (also for report and
                          perf:baseline)
  --allow-profile-mismatch
                          compare with another hardware profile's baseline: ratio and exact
                          metrics only
  --gate-timing           judge absolute times across processes too, as ratios are, and let
                          them fail the run (also PERF_GATE_TIMING=1)
${EXPORTERS.flatMap((e) => ('flag' in e.to ? [`${e.to.usage}\n`] : [])).join('')}
Output files (every command): a file already at an output path is replaced only when it is
the same kind of output (an earlier run record, report, verdicts or doctor report); --force
replaces another kind of file; a baseline is never replaced (only perf:baseline writes one,
keeping a .prev). Every output path is checked before anything is measured.

A/B options (perf:ab):
  --base REF              the commit to compare against (required); a baseline file
                          (baselines/<profile>.json) means the commit it was measured at
  --head REF              the other arm (default: the working tree)
  --scenario ID           repeatable (default: speedup and dtypes here; every perf file of each
                          commit in your project)
  --processes K           processes per arm and look (default 8; 6 is the fewest that can
                          decide at the first look; K more once when inconclusive); each arm
                          is measured by its own commit's harness
  --ratios-only           judge speedups only, not absolute times
  --json FILE, --markdown FILE
                          write the verdicts there too

Calibrate options (in your project):
  --processes K           processes per arm of the A/A (default 20)
  --write-tolerances      write each metric's smallest supported tolerance to
                          baselines/tolerances.json (merged; perf:ab and perf:baseline read it)

Bisect options (perf:bisect; also --scenario, --processes, --ratios-only, --backend as for perf:ab):
  --good REF, --bad REF   the range: the good end is the older commit (both required)
  --metric ID             the metric that moved (default: any judged metric)
  --json FILE             write the probes and the culprit there too

Baseline options:
  --baseline FILE         where to write (default: the run's profile baseline)
  --allow-dirty           accept a run made from a working tree with uncommitted changes
  --allow-partial         accept a run of only some scenarios, dropping the others' metrics
  --merge                 replace only the run's metrics in the existing baseline (e.g. a
                          --processes 8 run of speedup and dtypes), keep the others

History options (perf:history):
  --history DIR           the history folder (default history/); perf --history DIR appends
                          each run's record to DIR/<profile>/, perf:baseline the accepted run's
                          (default history/)
  --profile P             the profile's folder to read (default: the only one there)
  --metric ID             only this metric; repeatable (default: every ratio and exact metric)
  --out FILE              the trend page (default: results/history-<profile>.html)
  --calibrate             false-positive rate and recall of the change-point detection on
                          series drawn from baselines/<profile>.calibration.json

Environment: PERF_BACKEND (as --backend); PERF_REQUIRE_BACKEND=<name> (fail unless that backend
runs; CI sets webgpu); PERF_GATE_TIMING=1 (as --gate-timing); PERF_REQUIRE_BASELINE=1 (perf
exits 3 when its profile has no baseline, instead of 0 with a note; CI sets it). Boolean
variables take 1/0, true/false, yes/no, on/off (any case; unset or empty: off); any other value
is exit 2. GITHUB_STEP_SUMMARY (set by GitHub Actions): perf, compare and ab append their
Markdown verdicts to it; checked before anything is measured (see docs/usage.md).

Exit codes: 0 pass; 1 a scenario failed or a gating metric regressed; 2 bad usage or bad
input (unknown flag, unreadable or invalid file, refused baseline update); 3 no baseline for
this profile (perf:compare; perf with PERF_REQUIRE_BASELINE=1), or a profile, scale or data
mismatch without --allow-profile-mismatch (profile only); perf:ab, perf:bisect and
perf:calibrate: nothing to compare (a commit without the harness or without perf files).`;

/**
 * The usage as the package shows it in a user's project, where the npm scripts of this
 * repository do not exist: each \`npm run <script> --\` becomes \`npx gtp <command>\` (the
 * description column kept aligned) and each script name the command's.
 */
export function installedUsage(text: string): string {
  const command = (line: string) =>
    line
      .replace(/npm run (?:perf:(\w+)|(perf|doctor|report))(?: --)?/g, (_m, sub: string | undefined, script: string | undefined) => `npx gtp ${sub ?? script}`)
      .replace(/\bperf:(compare|baseline|ab|bisect|calibrate|history)\b/g, 'gtp $1');
  const lines = text.split('\n').map((line) => {
    // A command line of the list: its description starts after a run of blanks; keep it there.
    const column = /^ {2}npm run \S.*?\S( {2,})\S/.exec(line);
    if (!column) return command(line);
    const at = column[0].length - 1;
    const head = command(line.slice(0, at)).trimEnd();
    return `${head.padEnd(Math.max(at, head.length + 2))}${line.slice(at)}`;
  });
  lines[0] = 'Usage (gpu-transfer-perf installed in your project; run from its root, where perf/ and baselines/ are):';
  lines[1] = '';
  return lines.filter((_, i) => i !== 1).join('\n');
}

/** --help as shown where it runs: this repository's npm scripts here, \`npx gtp <command>\` where the package is installed. */
export const USAGE = FROM_SOURCES ? SOURCE_USAGE : installedUsage(SOURCE_USAGE);

function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag} must be one of ${allowed.join('|')}, got '${value}'`);
}

/** The flags of AbArgs. */
const AB_OPTIONS = {
  scenario: { type: 'string', multiple: true },
  processes: { type: 'string' },
  json: { type: 'string' },
  force: { type: 'boolean' },
  backend: { type: 'string' },
  'ratios-only': { type: 'boolean' },
} as const;

const RUN_OPTIONS = {
  backend: { type: 'string' },
  scale: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];
const COMPARE_OPTIONS = {
  baseline: { type: 'string' },
  baselines: { type: 'string' },
  'allow-profile-mismatch': { type: 'boolean' },
  'gate-timing': { type: 'boolean' },
  ...Object.fromEntries(exportFlags().map((flag) => [flag, { type: 'string' } as const])),
  force: { type: 'boolean' },
} as const satisfies ParseArgsConfig['options'];

const OPTIONS_BY_COMMAND = {
  perf: {
    ...RUN_OPTIONS,
    ...COMPARE_OPTIONS,
    out: { type: 'string' },
    scenario: { type: 'string', multiple: true },
    processes: { type: 'string' },
    dir: { type: 'string' },
    history: { type: 'string' },
    verbose: { type: 'boolean' },
    shape: { type: 'string' },
    batch: { type: 'string' },
    dtype: { type: 'string' },
    'image-folder': { type: 'string' },
    size: { type: 'string' },
    fit: { type: 'string' },
    resample: { type: 'string' },
    'max-pixels': { type: 'string' },
    mean: { type: 'string' },
    std: { type: 'string' },
  },
  ab: { ...AB_OPTIONS, base: { type: 'string' }, head: { type: 'string' }, markdown: { type: 'string' } },
  bisect: { ...AB_OPTIONS, good: { type: 'string' }, bad: { type: 'string' }, metric: { type: 'string' } },
  doctor: {
    ...RUN_OPTIONS,
    'expect-gpu': { type: 'boolean' },
    json: { type: 'string' },
    quick: { type: 'boolean' },
    force: { type: 'boolean' },
    'sysfs-root': { type: 'string' },
    'write-envelope': { type: 'string' },
    from: { type: 'string', multiple: true },
    processes: { type: 'string' },
  },
  report: { baseline: { type: 'string' }, baselines: { type: 'string' }, out: { type: 'string' }, force: { type: 'boolean' } },
  calibrate: { ...RUN_OPTIONS, processes: { type: 'string' }, 'write-tolerances': { type: 'boolean' } },
  compare: COMPARE_OPTIONS,
  baseline: {
    baseline: { type: 'string' },
    baselines: { type: 'string' },
    'allow-dirty': { type: 'boolean' },
    'allow-partial': { type: 'boolean' },
    merge: { type: 'boolean' },
    history: { type: 'string' },
  },
  history: {
    profile: { type: 'string' },
    metric: { type: 'string', multiple: true },
    history: { type: 'string' },
    out: { type: 'string' },
    calibrate: { type: 'boolean' },
    force: { type: 'boolean' },
  },
} as const satisfies Record<Command, ParseArgsConfig['options']>;

/** Backend and scale from flags, else from PERF_BACKEND / PERF_REQUIRE_BACKEND / PERF_SCALE. */
function envBackendArgs(env: NodeJS.ProcessEnv, flags: { backend: string | null; scale: string | null }): BackendArgs {
  return {
    backend: backendChoice(env, flags.backend),
    requireBackend: env.PERF_REQUIRE_BACKEND ? oneOf('PERF_REQUIRE_BACKEND', env.PERF_REQUIRE_BACKEND, BACKEND_NAMES, 'webgpu') : null,
    scale: flagOrEnv('--scale', flags.scale, 'PERF_SCALE', env, SCALES, 'quick'),
  };
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

/** A comma-separated list: '8,16,32' -> ['8', '16', '32'], with no empty items. */
function list(flag: string, text: string): string[] {
  const items = text.split(',').map((v) => v.trim());
  if (items.some((v) => v === ''))
    throw new UsageError(`--${flag} ${text}: an empty item; write e.g. --${flag} ${flag === 'dtype' ? 'uint8,float32' : '8,16,32'}`);
  return items;
}

/** The largest --batch value: a batch of 4096 images is far past any input pipeline's. */
const MAX_BATCH = 4096;

/** --batch values: whole numbers from 1 to MAX_BATCH, each once. */
function batches(text: string): number[] {
  const values = list('batch', text).map((v) => {
    if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > MAX_BATCH)
      throw new UsageError(`--batch ${text}: '${v}' is not a whole number from 1 to ${MAX_BATCH}`);
    return Number(v);
  });
  if (new Set(values).size !== values.length) throw new UsageError(`--batch ${text}: a batch size is repeated`);
  return values;
}

/** --max-pixels N: a whole number of pixels, at least 1. */
function pixelBudget(text: string): number {
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1)
    throw new UsageError(`--max-pixels ${text}: expected a whole number of pixels >= 1 (default ${PIL_MAX_IMAGE_PIXELS}, PIL's MAX_IMAGE_PIXELS)`);
  return value;
}

/** torchvision's ImageNet constants times 255, as the help states them (IMAGENET_NORMALIZATION's values). */
const IMAGENET_255 = '123.675,116.28,103.53 and 58.395,57.12,57.375';

/**
 * --mean R,G,B and --std R,G,B (both or neither): three finite numbers each on the 0-255 scale,
 * no std of 0 (a division by zero). Values all within [0, 1] are torchvision's 0-1 scale, not
 * pixels: refused with the conversion, since on 0-255 pixels they would normalize nothing.
 */
function normalizationFlags(mean: string | null, std: string | null, channels: number): QuestionNormalization | undefined {
  if (mean === null && std === null) return undefined;
  if (mean === null || std === null) throw new UsageError(`--mean and --std go together (R,G,B each, 0-255 scale; ImageNet's: ${IMAGENET_255})`);
  const values = (flag: string, text: string): number[] => {
    const items = text.split(',').map((v) => v.trim());
    if (items.length !== 3) throw new UsageError(`--${flag} ${text}: ${items.length} values; give 3, one per channel R,G,B`);
    return items.map((v) => {
      const value = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(v) ? Number(v) : Number.NaN;
      if (!Number.isFinite(value)) throw new UsageError(`--${flag} ${text}: '${v}' is not a number`);
      return value;
    });
  };
  const n = { mean: values('mean', mean), std: values('std', std) };
  if (n.std.some((s) => s === 0)) throw new UsageError(`--std ${std}: a std of 0 divides by zero`);
  if ([...n.mean, ...n.std].every((v) => Math.abs(v) <= 1)) {
    const times255 = (xs: number[]) => xs.map((v) => Number((v * 255).toPrecision(6))).join(',');
    throw new UsageError(
      `--mean ${mean} --std ${std}: these look like torchvision's 0-1 scale; pixels here are 0-255: --mean ${times255(n.mean)} --std ${times255(n.std)}`,
    );
  }
  if (channels !== 3) throw new UsageError(`--mean and --std give R,G,B; the shape has ${channels} channel${channels === 1 ? '' : 's'}`);
  return n;
}

/**
 * The question asked with --shape or --image-folder (and their --batch, --dtype, --size, --fit,
 * --mean, --std), or null; a flag of one kind with the other, or with neither, is a usage error.
 */
function questionOf(str: (name: string) => string | null): Question | null {
  const shape = str('shape');
  const folder = str('image-folder');
  const batch = str('batch');
  const dtype = str('dtype');
  const size = str('size');
  const fit = str('fit');
  const resample = str('resample');
  const maxPixels = str('max-pixels');
  const [mean, std] = [str('mean'), str('std')];
  try {
    if (shape !== null && folder !== null) throw new UsageError('--shape and --image-folder are two questions: ask one per run');
    if (shape !== null) {
      if (size !== null || fit !== null || resample !== null || maxPixels !== null)
        throw new UsageError('--size, --fit, --resample and --max-pixels go with --image-folder; a --shape already has its height and width');
      const [n, h, w, c] = parseShape(shape, 4);
      // Each batch size checked as a whole shape: float32 copies (4 bytes a value) are made of it.
      const shapes = (batch === null ? [n] : batches(batch)).map((b) => parseShape(`${b}x${h}x${w}x${c}`, 4));
      const dtypes = dtype === null ? [] : list('dtype', dtype);
      const unknown = dtypes.find((d) => !(WIRE_DTYPES as readonly string[]).includes(d));
      if (unknown !== undefined) throw new UsageError(`--dtype ${dtype}: '${unknown}' is not one of ${WIRE_DTYPES.join(',')}`);
      if (new Set(dtypes).size !== dtypes.length) throw new UsageError(`--dtype ${dtype}: a type is repeated`);
      const normalization = normalizationFlags(mean, std, c);
      return { kind: 'shape', shapes, dtypes: dtypes as WireDtype[], ...(normalization ? { normalization } : {}) };
    }
    if (folder !== null) {
      if (dtype !== null) throw new UsageError('--dtype goes with --shape; an image folder is measured as decoded uint8 pixels');
      const normalization = normalizationFlags(mean, std, 3); // decoded as RGB
      const sizes = batch === null ? [16] : batches(batch);
      if (sizes.length > 1) throw new UsageError(`--batch ${batch}: an image folder is measured at one batch size`);
      return {
        kind: 'image-folder',
        root: folder,
        size: parseSize(size ?? '224x224'),
        fit: oneOf('--fit', fit ?? undefined, ['resize', 'letterbox'] as const, 'resize'),
        batchSize: sizes[0]!,
        resample: oneOf('--resample', resample ?? undefined, IMAGE_RESAMPLES, 'antialias'),
        maxPixels: maxPixels === null ? PIL_MAX_IMAGE_PIXELS : pixelBudget(maxPixels),
        ...(normalization ? { normalization } : {}),
      };
    }
  } catch (error) {
    if (error instanceof ShapeParseError) throw new UsageError(error.message);
    throw error;
  }
  const stray = (['batch', 'dtype', 'size', 'fit', 'resample', 'max-pixels', 'mean', 'std'] as const).find(
    (_, i) => [batch, dtype, size, fit, resample, maxPixels, mean, std][i] !== null,
  );
  if (stray) throw new UsageError(`--${stray} goes with --shape or --image-folder`);
  return null;
}

/** The perf flags of the data sources: each a string option. */
const dataOptions = (sources: readonly AnyDatasetSource[]): ParseArgsConfig['options'] =>
  Object.fromEntries(sources.flatMap((s) => s.flags.map((f) => [f.name, { type: 'string' } as const])));

/** What each data source's flags name, by source name; a combination a source refuses is a usage error. */
function dataOf(sources: readonly AnyDatasetSource[], str: (name: string) => string | null): DataSources {
  try {
    return Object.fromEntries(sources.map((s) => [s.name, s.given(str)]));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError((error as Error).message);
  }
}

/**
 * Parses and validates a command line; throws UsageError on anything it does not know.
 * `sources`: the data sets whose flags perf takes (the registered ones; a test passes its own).
 */
export function parseCommandLine(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  sources: readonly AnyDatasetSource[] = DATASET_SOURCES,
): CommandLine {
  const command = oneOf('command', argv[0] && !argv[0].startsWith('-') ? argv[0] : undefined, COMMANDS, 'perf');
  const rest = argv[0] === command ? argv.slice(1) : [...argv];
  if (rest.includes('--help') || rest.includes('-h')) return { command: 'help' };
  const parsed = (() => {
    try {
      const options = command === 'perf' ? { ...OPTIONS_BY_COMMAND.perf, ...dataOptions(sources) } : OPTIONS_BY_COMMAND[command];
      return parseArgs({ args: rest, allowPositionals: true, strict: true, options });
    } catch (error) {
      // Node's message for a value starting with '-' runs to three lines; one is enough.
      const ambiguous = /^Option '(--[a-z-]+)[^']*' argument is ambiguous/.exec((error as Error).message);
      if (ambiguous) throw new UsageError(`${command}: ${ambiguous[1]} needs a value; a value starting with '-' goes as ${ambiguous[1]}=VALUE`);
      throw new UsageError(`${command}: ${(error as Error).message.split('\n')[0]}`);
    }
  })();
  const values = parsed.values as Record<string, string | string[] | boolean | undefined>;
  const str = (name: string): string | null => {
    const v = values[name];
    if (v === '') throw new UsageError(`--${name} needs a value`);
    return typeof v === 'string' ? v : null;
  };
  const flag = (name: string): boolean => values[name] === true;
  const count = (name: string, fallback: number): number => {
    const v = str(name);
    if (v === null) return fallback;
    if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 200) throw new UsageError(`--${name} must be a whole number from 1 to 200, got '${v}'`);
    return Number(v);
  };
  const positionals = parsed.positionals;
  const maxPositionals = command === 'compare' || command === 'baseline' || command === 'report' ? 1 : 0;
  if (positionals.length > maxPositionals) throw new UsageError(`unexpected arguments: ${positionals.slice(maxPositionals).join(' ')}`);

  const backendArgs = (): BackendArgs => envBackendArgs(env, { backend: str('backend'), scale: str('scale') });
  const doctorEnvelopeArgs = () => {
    const from = (values.from as string[] | undefined) ?? [];
    const writeEnvelope = str('write-envelope');
    if (from.length > 0 && writeEnvelope === null) throw new UsageError('doctor: --from names reports for --write-envelope FILE, which is missing');
    return { sysfsRoot: str('sysfs-root'), writeEnvelope, from, processes: count('processes', 8) };
  };
  const abArgs = (): AbArgs => ({
    scenarios: (values.scenario as string[] | undefined) ?? [],
    processes: count('processes', 8),
    json: str('json'),
    force: flag('force'),
    backend: backendChoice(env, str('backend')),
    ratiosOnly: flag('ratios-only'),
  });
  const compareArgs = (): CompareArgs => ({
    baseline: str('baseline'),
    baselines: str('baselines') ?? BASELINE_DIR,
    allowProfileMismatch: flag('allow-profile-mismatch'),
    // Both read even when the flag is given: a bad value is reported, not hidden by the flag.
    gateTiming: envBoolean(env, 'PERF_GATE_TIMING') || flag('gate-timing'),
    requireBaseline: envBoolean(env, 'PERF_REQUIRE_BASELINE'),
    exports: Object.fromEntries(exportFlags().map((name) => [name, str(name)])),
    force: flag('force'),
    jobSummary: jobSummary(env),
  });
  switch (command) {
    case 'perf':
      return {
        command,
        ...backendArgs(),
        ...compareArgs(),
        out: str('out'),
        scenarios: (values.scenario as string[] | undefined) ?? [],
        data: dataOf(sources, str),
        processes: count('processes', 1),
        question: questionOf(str),
        dir: str('dir'),
        history: str('history'),
        verbose: flag('verbose'),
        videoTools: videoToolsFromEnv(env),
      };
    case 'ab': {
      const base = str('base');
      if (!base) throw new UsageError('ab: --base REF is required (a commit, branch or tag to compare the working tree or --head with)');
      return {
        command,
        base,
        head: str('head'),
        markdown: str('markdown'),
        jobSummary: jobSummary(env),
        ...abArgs(),
      };
    }
    case 'bisect': {
      const good = str('good');
      const bad = str('bad');
      if (!good || !bad) throw new UsageError('bisect: --good REF and --bad REF are both required (commits, branches or tags; good is the older)');
      return {
        command,
        good,
        bad,
        metric: str('metric'),
        ...abArgs(),
      };
    }
    case 'doctor':
      return {
        command,
        ...backendArgs(),
        expectGpu: flag('expect-gpu'),
        json: str('json'),
        quick: flag('quick'),
        force: flag('force'),
        ldLibraryPath: env.LD_LIBRARY_PATH || null,
        ...doctorEnvelopeArgs(),
      };
    case 'report':
      return {
        command,
        run: positionals[0] ?? null,
        baseline: str('baseline'),
        baselines: str('baselines') ?? BASELINE_DIR,
        out: str('out'),
        force: flag('force'),
      };
    case 'calibrate':
      return { command, ...backendArgs(), processes: str('processes') === null ? null : count('processes', 1), writeTolerances: flag('write-tolerances') };
    case 'compare':
      return { command, run: positionals[0] ?? null, ...compareArgs() };
    case 'baseline':
      return {
        command,
        run: positionals[0] ?? null,
        target: str('baseline'),
        baselines: str('baselines') ?? BASELINE_DIR,
        allowDirty: flag('allow-dirty'),
        allowPartial: flag('allow-partial'),
        merge: flag('merge'),
        history: str('history') ?? HISTORY_DIR,
      };
    case 'history':
      return {
        command,
        profile: str('profile'),
        metrics: (values.metric as string[] | undefined) ?? [],
        history: str('history') ?? HISTORY_DIR,
        out: str('out'),
        calibrate: flag('calibrate'),
        force: flag('force'),
      };
  }
}

/**
 * The RunConfig of a perf command line (the perf command's and the measure host's): its
 * backend, scale and data; the selection when scenarios or a question were named.
 */
export function perfRunConfig(
  args: Extract<CommandLine, { command: 'perf' }>,
  files: ReadonlyArray<{ readonly path: string }>,
  datasets: Record<string, string>,
): RunConfig {
  return {
    backend: args.backend,
    requireBackend: args.requireBackend,
    scale: args.scale,
    data: args.data,
    selection: args.scenarios.length > 0 || args.question ? files.map((f) => f.path) : null,
    datasets,
    ...(args.question ? { question: args.question } : {}),
    videoTools: args.videoTools,
  };
}
