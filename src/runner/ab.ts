import { withoutDawnNotices } from '../backend/dawn-notices.js';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { BackendChoice } from '../backend/types.js';
import { type Baseline, BASELINE_DIR, readBaseline, readToleranceOverrides } from '../results/baseline.js';
import type { AbResult } from '../results/ab-result.js';
import { EXIT, signalExitCode } from '../results/exit.js';
import { covariateIdOf, isCovariateMetric } from '../results/covariate.js';
import { directionOf } from '../results/direction.js';
import { DEFAULT_PROCESS_ALPHA, judgeProcesses, processCountProblem, type ProcessSamples, type ProcessVerdict } from '../results/process-verdict.js';
import type { RunRecord } from '../results/schema.js';
import { readRunRecord } from '../results/storage.js';
import { commandLine, commandName } from '../base/commands.js';
import { type ArmHarness, armHarness, dependsOnHarness, HARNESS_SOURCE, INSTALLED_HARNESS } from './arm-harness.js';
import { type MeasureHost, startMeasureHost } from './measure-host.js';
import { NothingToCompareError, nothingMeasuredError } from './nothing-to-compare.js';
import { withResolvedUrls } from './offline-lock.js';
import { checkBackendChoice, RunInputError, scenarioFiles } from './perf.js';
import { ProcessLostError } from './process-lost.js';
import { BROWSER_SCENARIO_DIR, browserScenarioDir, DEFAULT_SCENARIO_DIR, listScenarios, selectScenarios } from './scenarios.js';

const run = promisify(execFile);

/** The prefix of the A/B's progress lines, as the command is called here (`perf:ab`, `gtp ab`). */
const LOG = `[${commandName('ab')}]`;

export { NothingToCompareError } from './nothing-to-compare.js';

/** What `npm run perf:ab` is asked to do. */
export interface AbOptions {
  readonly base: string;
  /** null: the working tree as it is. */
  readonly head: string | null;
  readonly scenarios: readonly string[];
  /** Processes per arm and look. */
  readonly processes: number;
  readonly backend: BackendChoice;
  /** Which metric kinds are judged (and can call for a second look); default both. */
  readonly kinds?: ReadonlyArray<'ratio' | 'time'>;
  /** --browser: each process is one browser launch (by its arm's measure host, or its commit's `perf --browser` where the host has none); absent or null: Node. */
  readonly browser?: AbBrowser | null;
}

/** The browser an A/B's processes run in, as the arms' `perf` commands are told (only what the user said). */
export interface AbBrowser {
  /** --browser NAME (checked up front: chromium). */
  readonly name: string;
  /** --browser-path, when given as a flag (GTP_BROWSER_PATH reaches the arms through their environment); null: not given. */
  readonly path: string | null;
  /** --browser-timeout S, when given (a commit from before the flag takes none); null: the arm's default. */
  readonly timeoutS: number | null;
}

/**
 * The folder of perf files an A/B's arms measure: perf/, or with --browser perf --browser's
 * default: perf/browser/, and in a user's project perf/ where it has no perf/browser/ (its files
 * run in the page unchanged: runner/scenarios.ts browserScenarioDir). This repository's perf/
 * files are Node's: a commit without perf/browser/ has nothing to run in a browser.
 */
const scenarioDirOf = (options: Pick<AbOptions, 'browser'>, root = process.cwd()): string =>
  !options.browser ? DEFAULT_SCENARIO_DIR : HARNESS_SOURCE === 'installed' ? browserScenarioDir(root) : BROWSER_SCENARIO_DIR;

/** One side of the comparison: a checkout with its own code and dependencies. */
export interface Arm {
  readonly name: 'base' | 'head';
  readonly label: string;
  /** The commit it measures (for the working tree: HEAD, plus what is uncommitted). */
  readonly commit: string;
  readonly dir: string;
  readonly records: RunRecord[];
  /** The harness that measures it: its own (sources here, the installed package in a user's project). */
  readonly harness: ArmHarness;
  /** The checkout's measure host, once started; null: a commit from before it, a command per process. */
  host: MeasureHost | null;
}

/** Default scenarios of an A/B in this repository: the timed ones whose ratios CI gates. */
export const AB_DEFAULT_SCENARIOS = ['speedup', 'dtypes'] as const;

/** Default scenarios of a browser A/B in this repository: the browser MNIST speedup (perf/browser/06-speedup.perf.ts). */
export const AB_BROWSER_DEFAULT_SCENARIOS = ['speedup'] as const;

/**
 * What perf:ab and perf:bisect measure, from their shared flags: the scenarios (default
 * AB_DEFAULT_SCENARIOS here; in a user's project none named, so each arm runs all of its own
 * perf files), processes, backend and judged kinds; an unknown scenario or a backend that is not
 * installed is the user's to fix (exit 2) before any checkout is made.
 */
export function abMeasureOptions(
  flags: Pick<AbOptions, 'scenarios' | 'processes' | 'backend' | 'browser'> & { readonly ratiosOnly: boolean; readonly command?: 'ab' | 'bisect' },
): Omit<AbOptions, 'base' | 'head'> {
  // Each arm is judged per process only: K + K must be able to decide at the first look (issue 25 item 3).
  const tooFew = processCountProblem(flags.processes, DEFAULT_PROCESS_ALPHA, false);
  if (tooFew) throw new RunInputError(tooFew);
  const defaults = flags.browser ? AB_BROWSER_DEFAULT_SCENARIOS : AB_DEFAULT_SCENARIOS;
  const scenarios = flags.scenarios.length > 0 ? flags.scenarios : HARNESS_SOURCE === 'sources' ? [...defaults] : [];
  // ab and bisect take no --dir: they measure commits, each with the perf/ folder (perf/browser/ with --browser) it holds.
  const name = commandLine(flags.command ?? 'ab');
  const dir = scenarioDirOf(flags);
  scenarioFiles(
    scenarios,
    dir,
    `${name} measures commits of the git repository it runs in: run it from that repository's root, where ${dir}/ holds each commit's perf files (${name} takes no --dir)`,
  );
  checkBackendChoice(flags.backend);
  return {
    scenarios,
    processes: flags.processes,
    backend: flags.backend,
    kinds: flags.ratiosOnly ? ['ratio'] : ['ratio', 'time'],
    ...(flags.browser ? { browser: flags.browser } : {}),
  };
}
/**
 * Why the selected scenarios are known to give an A/B nothing to judge, or null. Known from a
 * baseline in `dir` that records every selected scenario (what their perf files measured on
 * some machine): when none of their metrics there is of a judged kind (ratio or time; the host
 * probes are covariates, not judged), K + K processes would be run for an empty table. A
 * selection no baseline covers is not known: it is measured, and an empty verdict is exit 3.
 */
export async function nothingToJudgeReason(
  flags: Pick<AbOptions, 'scenarios' | 'kinds' | 'browser'> & { readonly command?: 'ab' | 'bisect' },
  dir = BASELINE_DIR,
): Promise<string | null> {
  const kinds = flags.kinds ?? ['ratio', 'time'];
  const ids = [...new Set(scenarioFiles(flags.scenarios, scenarioDirOf(flags)).map((f) => f.id))];
  if (ids.length === 0) return null;
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort();
  } catch {
    return null;
  }
  for (const name of names) {
    let baseline: Baseline;
    try {
      baseline = await readBaseline(join(dir, name));
    } catch {
      continue; // tolerances.json, a doctor envelope, a foreign file: not a record of what scenarios measure
    }
    // A browser scenario shares its id with a Node one (speedup): only the same host's baselines say what it records.
    if (baseline.profile.id.includes(`-${flags.browser?.name ?? 'chromium'}-`) !== Boolean(flags.browser)) continue;
    const recorded = new Set(baseline.metrics.map((m) => m.scenario));
    if (!ids.every((id) => recorded.has(id))) continue;
    // What an A/B of these kinds judges: their metrics, less the host-state probes (covariates).
    const judgeable = baseline.metrics.filter((m) => (kinds as readonly string[]).includes(m.kind) && !isCovariateMetric(m));
    if (judgeable.some((m) => ids.includes(m.scenario))) return null;
    const others = [...new Set(judgeable.map((m) => m.scenario))];
    const kindWords = kinds.length === 1 ? `${kinds[0]} metric` : 'ratio or time metric';
    return `${commandName(flags.command ?? 'ab')}: the scenario${ids.length === 1 ? '' : 's'} ${ids.join(', ')} record${ids.length === 1 ? 's' : ''} no ${kindWords} (${join(dir, name)} lists ${ids.length === 1 ? 'its' : 'their'} metrics), so ${flags.command === 'bisect' ? 'no probe has anything' : 'an A/B has nothing'} to judge; name a scenario that records one${others.length > 0 ? ` (${others.slice(0, 6).join(', ')}${others.length > 6 ? ', ...' : ''})` : ''}`;
  }
  return null;
}

/** A/B tolerance where tolerances.json names none: 10% for ratios and times alike (one machine, one job). */
export const AB_TOLERANCE = 0.1;

/**
 * Child processes running now (git, npm ci, the arms' perf processes): a signal stops them
 * before their folders are removed, else a checkout or a record write could recreate them.
 */
const running = new Set<ChildProcess>();
function tracked<T extends { child: ChildProcess }>(started: T): T {
  running.add(started.child);
  started.child.once('exit', () => running.delete(started.child));
  return started;
}

/** Stops a child (SIGTERM, then SIGKILL after 10 s) and resolves once it has exited. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      done();
    });
    child.kill('SIGTERM');
  });
}

export async function git(args: string[], cwd = process.cwd()): Promise<string> {
  return (await tracked(run('git', args, { cwd }))).stdout.trim();
}

/**
 * A ref as the user gave it, or, for a baseline file (`--base baselines/<profile>.json`), the
 * commit that baseline was measured at: CI A/Bs the working tree against it.
 */
export async function resolveRef(ref: string): Promise<string> {
  if (!ref.endsWith('.json')) return ref;
  const baseline = await readBaseline(ref);
  if (!baseline.git.commit || baseline.git.dirty !== false) {
    throw new RunInputError(
      `--base ${ref}: the baseline records no clean commit to check out (commit ${baseline.git.commit ?? 'none'}, dirty ${baseline.git.dirty})`,
    );
  }
  return baseline.git.commit;
}

/** The text of a file, or null when there is none. */
async function textOrNull(path: string): Promise<string | null> {
  return existsSync(path) ? readFile(path, 'utf8') : null;
}

/**
 * In a user's project, what the checkout of `ref` at `dir` must hold before anything is installed:
 * gpu-transfer-perf among its dependencies and the perf files to measure (the named scenarios,
 * or any). Without them there is nothing to compare (exit 3), said with what to do.
 */
async function requireMeasurable(ref: string, commit: string, dir: string, options: AbOptions): Promise<void> {
  const at = `${ref} (${commit.slice(0, 12)})`;
  const manifest = await textOrNull(join(dir, 'package.json'));
  if (manifest === null || !dependsOnHarness(manifest)) {
    throw new NothingToCompareError(
      `${at} does not depend on gpu-transfer-perf (${manifest === null ? 'no package.json' : 'not in its package.json'}), so nothing there can measure it: compare with a commit made after the harness was added (\`git log -- package.json\` shows when), or commit \`npm install gpu-transfer-perf\` first`,
    );
  }
  requirePerfFiles(at, dir, options);
}

/**
 * The checkout at `dir` holds the perf files the arms run (perf/, or perf/browser/ with --browser),
 * the named ones among them; else nothing to compare (exit 3). With --browser it is checked in this
 * repository too: a commit from before the browser host has no perf/browser/ (it came with
 * `perf --browser`), and its processes would each fail on an unknown flag.
 */
export function requirePerfFiles(at: string, dir: string, options: Pick<AbOptions, 'scenarios' | 'browser'>): void {
  const folder = scenarioDirOf(options, dir);
  let files: ReturnType<typeof listScenarios>;
  try {
    files = listScenarios(dir, folder);
  } catch {
    files = [];
  }
  if (files.length === 0) {
    const what = options.browser
      ? `so it cannot run in a browser (its harness has no \`perf --browser\`, or it keeps no browser perf files): pick a base at or after the first commit with ${folder}/ (\`git log --reverse -- ${folder}\` shows it first)`
      : `so there is nothing to measure there: compare with a commit that has them (\`git log -- ${folder}\` shows when they came), or measure this tree alone with \`${commandLine('perf')}\``;
    throw new NothingToCompareError(`${at} has no perf files in ${folder}/ ([NN-]name.perf.ts or .spec.ts), ${what}`);
  }
  try {
    selectScenarios(files, options.scenarios);
  } catch (error) {
    throw new NothingToCompareError(`${at} lacks a scenario you named: ${(error as Error).message}; name only scenarios both commits have`);
  }
}

/**
 * With --browser, an installed harness (a user's project) whose `perf` has no --browser cannot
 * measure its commit in a browser (exit 3): read from its own `perf --help`, before any process.
 * In this repository perf/browser/ came with the flag (requirePerfFiles).
 */
export async function requireBrowserHarness(label: string, harness: ArmHarness): Promise<void> {
  const help = await tracked(run(harness.perf.command, [...harness.perf.args, '--help'], { maxBuffer: 4 * 1024 * 1024 })).then(
    (r) => r.stdout,
    (error: { stdout?: unknown }) => String(error.stdout ?? ''), // a help that exits non-zero: judged by what it printed
  );
  if (/^ {2}--browser /m.test(help)) return;
  throw new NothingToCompareError(
    `${label}: its gpu-transfer-perf ${harness.version ?? '(unknown version)'} has no \`perf --browser\`, so it cannot run in a browser: pick a base whose package.json has a gpu-transfer-perf with --browser, or A/B in Node (drop --browser)`,
  );
}

/**
 * The working tree's node_modules for a checkout of the same lockfile: one link; with --browser a
 * folder of links to its entries, so that Vite's dependency cache (<root>/node_modules/.vite,
 * keyed by the project root) is the checkout's own. Shared by both arms' roots, it was rebuilt at
 * every switch of arm, and a head process whose page loaded meanwhile hung here until its timeout.
 */
export async function linkNodeModules(from: string, to: string, ownViteCache: boolean): Promise<void> {
  if (!ownViteCache) return symlink(from, to, 'dir');
  await mkdir(to);
  for (const name of await readdir(from)) if (name !== '.vite') await symlink(join(from, name), join(to, name));
}

/**
 * A git worktree of `ref` with dependencies: node_modules linked when the lockfile is byte-equal
 * to the working tree's (same packages, same harness), else installed there from npm's cache
 * (`npm ci`, or `npm install` at a commit without a lockfile).
 */
async function checkout(ref: string, into: string, options: AbOptions): Promise<string> {
  let commit: string;
  try {
    commit = await git(['rev-parse', '--verify', `${ref}^{commit}`]);
  } catch {
    throw new RunInputError(`--base/--head ${ref}: not a commit, branch or tag of this repository`);
  }
  await git(['worktree', 'add', '--detach', into, commit]);
  if (HARNESS_SOURCE === 'installed') await requireMeasurable(ref, commit, into, options);
  else if (options.browser) requirePerfFiles(`${ref} (${commit.slice(0, 12)})`, into, options);
  const lock = await textOrNull(join(into, 'package-lock.json'));
  const sameLock = lock !== null && existsSync('node_modules') && lock === (await textOrNull('package-lock.json'));
  if (sameLock) await linkNodeModules(resolve('node_modules'), join(into, 'node_modules'), Boolean(options.browser));
  else {
    const install = lock !== null ? ['ci'] : ['install', '--no-save'];
    try {
      // Each package's tarball named, so that npm takes it from its cache without asking the
      // registry (offline-lock.ts); the commit's own lockfile put back after, its checkout clean.
      if (lock !== null) {
        const registry = (await run('npm', ['config', 'get', 'registry'], { cwd: into })).stdout.trim();
        await writeFile(join(into, 'package-lock.json'), withResolvedUrls(lock, registry));
      }
      try {
        await tracked(run('npm', [...install, '--prefer-offline', '--no-audit', '--no-fund'], { cwd: into, maxBuffer: 64 * 1024 * 1024 }));
      } finally {
        if (lock !== null) await writeFile(join(into, 'package-lock.json'), lock);
      }
    } catch (error) {
      const tail = String((error as { stderr?: unknown }).stderr ?? (error as Error).message)
        .trim()
        .split('\n')
        .slice(-3)
        .join(' | ');
      const message = `${ref} (${commit.slice(0, 12)}): its dependencies did not install (npm ${install.join(' ')} --prefer-offline): ${tail}`;
      // In a user's project the base's own packages measure it: none installed, nothing to compare.
      if (HARNESS_SOURCE === 'installed') throw new NothingToCompareError(`${message}; fix that commit's package-lock.json or compare with another one`);
      throw new Error(message);
    }
  }
  return commit;
}

/** The harness of an arm's checkout; none (no installed package) is nothing to compare. */
export function harnessOf(dir: string, label: string): ArmHarness {
  const harness = armHarness(dir);
  if (harness) return harness;
  throw new NothingToCompareError(
    `${label}: no ${INSTALLED_HARNESS} in ${dir}, so nothing can measure it: run \`npm install\` (gpu-transfer-perf in your package.json) and try again`,
  );
}

/**
 * perf's flags for an arm's processes: the scenarios and the backend (the record file is per
 * process), and with --browser the browser flags the user gave (the arm's own perf checks them again).
 */
export function perfFlags(options: Pick<AbOptions, 'scenarios' | 'backend' | 'browser'>): string[] {
  const browser = options.browser
    ? [
        ...['--browser', options.browser.name],
        ...(options.browser.path !== null ? ['--browser-path', options.browser.path] : []),
        ...(options.browser.timeoutS !== null ? ['--browser-timeout', String(options.browser.timeoutS)] : []),
      ]
    : [];
  return [...options.scenarios.flatMap((s) => ['--scenario', s]), '--backend', options.backend, ...browser];
}

/** The environment of an arm's processes: the arms are judged here, not against a baseline, so no gating variables inside them. */
function armEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.PERF_REQUIRE_BASELINE;
  delete env.PERF_GATE_TIMING;
  delete env.PERF_REQUIRE_BACKEND;
  return env;
}

/** Starts the arm's measure host when its harness has one (tracked, so a signal stops it). */
export function startHost(arm: Arm, options: Pick<AbOptions, 'scenarios' | 'backend' | 'browser'>): void {
  // In a browser a process is one Chromium launch: the host launches one per request on its one
  // Vite server (runner/host-browser.ts); a harness from before that measures a command per launch.
  if (options.browser && arm.harness.host && !arm.harness.hostTakesBrowser) {
    console.log(`${LOG} ${arm.label}: its measure host runs in Node only; a perf --browser command per launch (slower start)`);
    return;
  }
  if (!arm.harness.host) {
    console.log(`${LOG} ${arm.label}: no measure host in its harness; a perf command per process (slower start)`);
    return;
  }
  arm.host = startMeasureHost(arm.dir, perfFlags(options), armEnv(), arm.label, arm.harness.host);
  tracked({ child: arm.host.child });
}

/** Runs one process of an arm, to `out`, and returns its record: through its measure host, or its own commit's `perf` command. */
export function runProcess(arm: Arm, options: Pick<AbOptions, 'scenarios' | 'backend' | 'browser'>, out: string): Promise<RunRecord> {
  if (arm.host) return arm.host.measure(out);
  const child = spawn(arm.harness.perf.command, [...arm.harness.perf.args, ...perfFlags(options), '--out', out], {
    cwd: arm.dir,
    env: armEnv(),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  tracked({ child });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    // Kept for the error message: its last lines, without Dawn's limit notices that would crowd out the cause.
    stderr = (stderr + withoutDawnNotices(chunk.toString())).slice(-4000);
  });
  return new Promise((done, fail) => {
    child.on('exit', async (code, signal) => {
      try {
        done(await readRunRecord(out)); // older schemas are migrated on read
      } catch (error) {
        fail(noRecordError(arm.label, stderr, code ?? signal ?? 'unknown', (error as Error).message));
      }
    });
  });
}

/**
 * Why an arm's process gave no run record, as one line. Its `perf` measured nothing (a perf file
 * that does not load, no scenario that reached a backend: it says "No run record" after its
 * `error:` lines): nothing to compare, exit 3, naming the arm's commit and the first cause. Else the
 * process was lost on the way (a browser that crashed, a page that hung, a killed process): exit 1,
 * as `perf` says of a lost process, with the last thing it said. Never a stack: nothing of it is a
 * defect of this process.
 */
export function noRecordError(label: string, stderr: string, ended: number | string, readError: string): NothingToCompareError | ProcessLostError {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const said = lines.find((l) => l.startsWith('error: '))?.slice('error: '.length);
  const cut = (text: string) => (text.length > 400 ? `${text.slice(0, 400)}...` : text);
  if (lines.some((l) => /^No run record\b/.test(l))) return nothingMeasuredError(label, said);
  const last = said ?? lines.at(-1) ?? readError;
  return new ProcessLostError(`${label}: its process ended (${ended}) without a run record, so the A/B cannot go on: ${cut(last)}`);
}

/**
 * The ABBA... order of one look: pair i runs base then head when i is even, head then base when
 * odd, so that a drift over the look (warming, throttling) falls on both arms alike.
 */
export function abbaOrder(processes: number): Array<readonly ['base' | 'head', 'base' | 'head']> {
  return Array.from({ length: processes }, (_, i) => (i % 2 === 0 ? (['base', 'head'] as const) : (['head', 'base'] as const)));
}

/** One look: processes of the two arms strictly one after another, in abbaOrder. */
export async function measureArms(arms: readonly [Arm, Arm], options: AbOptions, work: string, look: string): Promise<void> {
  for (const [i, pair] of abbaOrder(options.processes).entries()) {
    for (const arm of pair.map((name) => (name === 'base' ? arms[0] : arms[1]))) {
      console.log(`${LOG} look ${look}, pair ${i + 1}/${options.processes}: ${arm.name} (${arm.label})`);
      arm.records.push(await runProcess(arm, options, join(work, `${arm.name}-${look}-${i}.json`)));
    }
  }
}

/**
 * Per-process values of every ratio and time metric present in every process of both arms, with
 * the covariate each process measured where the metric names one and every process has it; a
 * covariate metric itself is not judged.
 */
export function perProcessValues(base: readonly RunRecord[], head: readonly RunRecord[]): ProcessSamples[] {
  const first = base[0]?.metrics ?? [];
  const valuesOf = (records: readonly RunRecord[], id: string) => records.map((r) => r.metrics.find((m) => m.id === id)?.value);
  const positive = (xs: ReadonlyArray<number | undefined>): xs is number[] => xs.every((v) => typeof v === 'number' && v > 0);
  const samples: ProcessSamples[] = [];
  for (const m of first) {
    if ((m.kind !== 'ratio' && m.kind !== 'time') || isCovariateMetric(m)) continue;
    const [b, h] = [valuesOf(base, m.id), valuesOf(head, m.id)];
    if (!positive(b) || !positive(h)) continue;
    const covariateId = covariateIdOf(m);
    const [cb, ch] = covariateId ? [valuesOf(base, covariateId), valuesOf(head, covariateId)] : [[], []];
    const covariate = covariateId && positive(cb) && positive(ch) ? { covariate: { base: cb, head: ch } } : {};
    const direction = directionOf(m);
    if (direction === 'info') continue;
    samples.push({ id: m.id, kind: m.kind, ...(direction === 'bigger' || direction === 'smaller' ? { direction } : {}), base: b, head: h, ...covariate });
  }
  return samples;
}

/**
 * Runs `cleanup` once: at the end of the A/B, or on SIGINT/SIGTERM, after which the process
 * exits 130/143 as a shell reports a signal. A signal skips `finally` blocks, and the next
 * run's `git worktree prune` keeps a worktree whose folder still exists: without this, every
 * Ctrl-C left a checkout and its temp folder behind. A second signal during the cleanup kills
 * the process as usual (the handler is installed once).
 */
function cleanupOnSignal(what: string, cleanup: () => Promise<void>): { readonly interrupted: () => boolean; readonly done: () => Promise<void> } {
  let started: Promise<void> | null = null;
  let interrupted = false;
  const once = () => {
    started ??= cleanup();
    return started;
  };
  const handlers = (['SIGINT', 'SIGTERM'] as const).map((signal) => {
    const handler = () => {
      interrupted = true;
      console.error(`\n${LOG} ${signal}: stopping its processes, removing ${what}`);
      void once().finally(() => process.exit(signalExitCode(signal)));
    };
    process.once(signal, handler);
    return { signal, handler };
  });
  return {
    interrupted: () => interrupted,
    done: () => {
      for (const { signal, handler } of handlers) process.off(signal, handler);
      return once();
    },
  };
}

/** The temp folder and worktrees of an A/B or a bisect, removed at the end or on a signal. */
export interface Workspace {
  readonly work: string;
  /** Folders of `git worktree add`, named before the checkout starts so that one cut short is removed too. */
  readonly worktrees: string[];
  readonly cleanup: ReturnType<typeof cleanupOnSignal>;
}

/** A new temp folder for checkouts; a signal stops the children and removes it all. */
export async function openWorkspace(prefix: string): Promise<Workspace> {
  try {
    await git(['rev-parse', '--verify', 'HEAD^{commit}']);
  } catch {
    // Commits are what an A/B or a bisect compares: outside a repository, or before its first commit, there are none.
    throw new RunInputError(
      `${process.cwd()} is not a git repository with a commit: ${commandName('ab')} and ${commandName('bisect')} compare commits (git init, then commit your project)`,
    );
  }
  await git(['worktree', 'prune']); // worktrees of an A/B that was killed
  const work = await mkdtemp(join(tmpdir(), prefix));
  const worktrees: string[] = [];
  const cleanup = cleanupOnSignal(`its worktrees and ${work}`, async () => {
    await Promise.all([...running].map(stop));
    for (const dir of worktrees) await removeWorktree(dir);
    await rm(work, { recursive: true, force: true });
    // A worktree cut short of registering, or whose removal failed, is gone from disk by now: prune forgets it.
    await git(['worktree', 'prune']).catch(() => undefined);
  });
  return { work, worktrees, cleanup };
}

/** Removes a worktree (a bisect removes each probe's when it is judged). */
export async function removeWorktree(dir: string): Promise<void> {
  await git(['worktree', 'remove', '--force', dir]).catch(() => undefined);
}

/** Checks `ref` out into `workspace/<folder>` and starts its measure host: an arm ready to measure. */
export async function openArm(workspace: Workspace, folder: string, name: Arm['name'], ref: string, options: AbOptions, label = ref): Promise<Arm> {
  const dir = join(workspace.work, folder);
  workspace.worktrees.push(dir);
  const commit = await checkout(ref, dir, options);
  // A bisect's probe is labelled with its commit already: not twice.
  const named = commit.startsWith(label) ? commit.slice(0, 12) : `${label} (${commit.slice(0, 12)})`;
  const arm: Arm = { name, label: named, commit, dir, records: [], harness: harnessOf(dir, named), host: null };
  if (options.browser && arm.harness.source === 'installed') await requireBrowserHarness(named, arm.harness);
  startHost(arm, options);
  return arm;
}

/** The arm of the working tree as it is (HEAD plus what is uncommitted), measured by its own harness. */
export async function openWorkingTree(options: AbOptions): Promise<Arm> {
  const commit = await git(['rev-parse', 'HEAD']);
  const label = `working tree at ${commit.slice(0, 7)}${(await git(['status', '--porcelain'])) ? ' (uncommitted changes)' : ''}`;
  const dir = process.cwd();
  const arm: Arm = { name: 'head', label, commit, dir, records: [], harness: harnessOf(dir, label), host: null };
  startHost(arm, options);
  return arm;
}

/**
 * What the result says beside the verdicts: different harness versions in the two arms (a change
 * may then be the harness's, not the code's), and metrics only one arm recorded (not judged).
 */
export function armNotes(arms: readonly [Arm, Arm]): string[] {
  const notes: string[] = [];
  const [base, head] = arms.map((a) => a.harness.version ?? 'unknown version');
  if (base !== head) {
    notes.push(
      `the arms ran different harness versions: base gpu-transfer-perf ${base}, head ${head}; each was measured by its own, so a change may come from the harness as well as from your code`,
    );
  }
  const ids = (arm: Arm) => new Set(arm.records.flatMap((r) => r.metrics.filter((m) => m.kind === 'ratio' || m.kind === 'time').map((m) => m.id)));
  const [inBase, inHead] = [ids(arms[0]), ids(arms[1])];
  const only = (a: Set<string>, b: Set<string>) => [...a].filter((id) => !b.has(id));
  if (only(inHead, inBase).length > 0) notes.push(`only the head recorded (not judged): ${only(inHead, inBase).join(', ')}`);
  if (only(inBase, inHead).length > 0) notes.push(`only the base recorded (not judged): ${only(inBase, inHead).join(', ')}`);
  return notes;
}

/**
 * Measures the two arms in ABBA order and judges every metric of `kinds` on its per-process
 * values; when any is inconclusive, K more processes per arm once (the sequential design).
 * `tag` names the looks' record files (a bisect measures many pairs of arms in one folder).
 */
export async function judgeArms(arms: readonly [Arm, Arm], options: AbOptions, work: string, tag = ''): Promise<ProcessVerdict[]> {
  const overrides = await readToleranceOverrides();
  const kinds = options.kinds ?? ['ratio', 'time'];
  const judge = () =>
    perProcessValues(arms[0].records, arms[1].records)
      .filter((s) => kinds.includes(s.kind))
      .map((s) => judgeProcesses(s, { tolerance: overrides[s.id] ?? AB_TOLERANCE, alpha: DEFAULT_PROCESS_ALPHA }));
  await measureArms(arms, options, work, `${tag}1`);
  const verdicts = judge();
  const open = verdicts.filter((v) => v.verdict === 'inconclusive');
  if (open.length === 0) return verdicts;
  console.log(`${LOG} inconclusive: ${open.map((v) => v.id).join(', ')}; ${options.processes} more processes per arm, once`);
  await measureArms(arms, options, work, `${tag}2`);
  return judge();
}

/** The scenario errors of every process of the arms, one line each. */
export function armErrors(arms: readonly Arm[]): string[] {
  return arms.flatMap((a) =>
    a.records.flatMap((r, k) => r.errors.map((e) => `${a.name} process ${k + 1}: [${e.scenario}] ${e.test}: ${e.message.split('\n')[0]}`)),
  );
}

/**
 * `npm run perf:ab`: checks the base (and head, if given) out into git worktrees, alternates
 * processes of the two arms on this machine (ABBA), judges every ratio and time metric on its
 * per-process values, and measures K more processes per arm once when any is inconclusive.
 */
export async function runAb(options: AbOptions): Promise<AbResult> {
  const started = performance.now();
  const workspace = await openWorkspace('gtp-ab-');
  const { work, cleanup } = workspace;
  let opened: readonly Arm[] = [];
  try {
    const base = await openArm(workspace, 'base', 'base', await resolveRef(options.base), options, options.base);
    opened = [base];
    const head = options.head ? await openArm(workspace, 'head', 'head', options.head, options) : await openWorkingTree(options);
    const arms = [base, head] as const;
    opened = arms;
    const verdicts = await judgeArms(arms, options, work);
    const errors = armErrors(arms);
    const regressed = verdicts.some((v) => v.verdict === 'regressed');
    // Nothing judged is not a pass: exit 3, as a comparison with no baseline (docs/usage.md).
    const nothingJudged = verdicts.length === 0 && errors.length === 0;
    const notes = [
      ...armNotes(arms),
      ...(nothingJudged
        ? [`nothing to judge: no ${(options.kinds ?? ['ratio', 'time']).join(' or ')} metric in both arms' processes, so this A/B says nothing (exit 3)`]
        : []),
    ];
    return {
      base: arms[0].label,
      head: arms[1].label,
      // None named (a user's project): each arm ran all of its perf files; the head's are listed.
      scenarios: options.scenarios.length > 0 ? options.scenarios : [...new Set(head.records.flatMap((r) => r.metrics.map((m) => m.scenario)))],
      processes: [arms[0].records.length, arms[1].records.length],
      verdicts,
      errors,
      ...(notes.length > 0 ? { notes } : {}),
      ...(head.records[0] ? { profile: head.records[0].profile.id } : {}),
      minutes: (performance.now() - started) / 60_000,
      exitCode: regressed || errors.length > 0 ? EXIT.regression : nothingJudged ? EXIT.noBaseline : EXIT.pass,
    };
  } catch (error) {
    // Interrupted: the stopped processes' failures are not the outcome; the handler exits 130/143.
    if (cleanup.interrupted()) await new Promise<never>(() => undefined);
    throw error;
  } finally {
    for (const arm of opened) await arm.host?.close();
    await cleanup.done();
  }
}
