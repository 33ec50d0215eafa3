import { rmSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { Plugin } from 'vitest/config';
import { dawnNoticeFilter } from '../backend/dawn-notices.js';
import { createVitest, type TestProject, type Vitest } from 'vitest/node';
import type { RunRecord } from '../results/schema.js';
import type { RunConfig } from '../run-config.js';
import { GTP_TEST_SETTINGS } from './vitest-settings.js';
import { RunProgressReporter } from './progress-reporter.js';
import { RunRecordReporter } from './reporter.js';
import type { ScenarioFile } from './scenarios.js';
import { type BrowserLaunch, browserOptimizeDeps, browserProfileHost, browserTestOptions, type PageCommands } from './browser.js';
import { FROM_SOURCES } from '../base/commands.js';

/**
 * COOP + COEP on every response of the page's server: the page is then cross-origin isolated, and
 * Chromium's performance.now() is coarsened to 5 µs instead of 100 µs with jitter (W3C High
 * Resolution Time, "Clock resolution"; Chromium's 'Aligning timers with cross-origin isolation').
 * Everything the page loads comes from that same server, or is a blob: URL, so require-corp blocks nothing.
 */
const CROSS_ORIGIN_ISOLATION = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
} as const;

/** A path as a glob that matches only itself: glob syntax characters escaped. */
function literalGlob(path: string): string {
  return path.replace(/[\\*?[\]{}()!+@]/g, '\\$&');
}

/**
 * Hands the run's configuration to every test project once vitest has resolved its config:
 * `configureVitest` runs after each project took the `provide` of a config file, so this one
 * wins. (Put in `test.provide` it would be deep-merged with the file's run configuration
 * instead, keeping keys of the file's that this run does not have.) The projects are kept, so
 * that a session can provide another configuration before a later run.
 */
function provideRunConfig(config: RunConfig, projects: TestProject[], browser: BrowserLaunch | null): Plugin {
  return {
    name: 'gpu-transfer-perf:run-config',
    configureVitest({ project }) {
      projects.push(project);
      project.provide('runConfig', config);
      if (!browser) return;
      // The page cannot read the host's CPU: the profile's host part comes from here (runner/browser.ts).
      project.provide('browserHost', browserProfileHost(browser));
      // The page's Vite server is a second one, built from the config file and the parent
      // project's `options` (@vitest/browser createBrowserServer spreads them), never from
      // createVitest's overrides (vitest#5015): the pre-bundled packages go there. The project
      // here is the browser instance's clone, whose parent (vitest-internal `_parent`) owns that
      // server. Without them a page file inside node_modules (doctor's, from the installed
      // package) had its tfjs served raw: 'module is not defined' in long.js.
      const owner = (project as TestProject & { _parent?: TestProject })._parent ?? project;
      // (configFile: the server reads the project's own, whatever this says.)
      owner.options = {
        configFile: false,
        ...owner.options,
        optimizeDeps: browserOptimizeDeps(FROM_SOURCES ? 'sources' : 'installed'),
        // The page cross-origin isolated, so that its clock is fine enough for millisecond transfers.
        server: { ...owner.options?.server, headers: { ...owner.options?.server?.headers, ...CROSS_ORIGIN_ISOLATION } },
      };
    },
  };
}

/**
 * Collects each test project's temp folder (`project.tmpDir`, <tmp>/<random id>/: the modules
 * vitest transformed for the forked worker) to remove when the process exits. vitest removes
 * it in close(), but its own SIGINT/SIGTERM handler calls process.exit without closing, so
 * every interrupted run left one behind; 'exit' listeners still run then, synchronously.
 */
function tmpDirsRemovedOnExit(): { readonly plugin: Plugin; readonly dispose: () => void } {
  const dirs = new Set<string>();
  const remove = () => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', remove);
  return {
    plugin: {
      name: 'gpu-transfer-perf:tmp-dirs',
      configureVitest({ project }) {
        dirs.add(project.tmpDir);
      },
    },
    dispose: () => process.off('exit', remove),
  };
}

/** How a session shows its progress, where it runs, and in which host (Node, or a browser it launches). */
export interface ScenarioSessionOptions {
  readonly quiet?: boolean;
  readonly verbose?: boolean;
  readonly root?: string;
  /** Run the files in this browser's page (vitest browser mode) instead of a forked Node process. */
  readonly browser?: BrowserLaunch | null;
  /** More commands the page may call besides the run's data (doctor's: its plan and its findings, src/cli/doctor/measure.ts). */
  readonly commands?: PageCommands;
}

/** Scenario files ready to run, each run in a new forked process; see openScenarioSession. */
export interface ScenarioSession {
  /**
   * Runs the files once in a new forked worker process (a fresh backend and device) and returns
   * its run record; `config` (default: the session's) is what the tests `inject` this time.
   * Null when no file ran.
   */
  run(config?: RunConfig): Promise<RunRecord | null>;
  /** The errors of the last run that no test caught (in a browser: a page or browser that closed). */
  unhandledErrors(): readonly string[];
  /** The last run's errors of files that failed to load or set up, each with its cause. */
  fileErrors(): readonly string[];
  /**
   * In a browser: closes the browser and lets the next run launch a new one (its renderer, GPU
   * process, JIT and device all new), on the same Vite server. The server only hands the page its
   * files; what carries state from one measurement to the next is the browser (docs/baselines.md).
   */
  relaunchBrowser(): Promise<void>;
  /** Stops vitest and removes its temp folders. */
  close(): Promise<void>;
}

/** What relaunchBrowser touches of vitest's browser mode and its Playwright provider (internals of vitest 4.1). */
interface BrowserInternals {
  readonly browser?: {
    readonly provider: { browser?: { close(): Promise<void> } | null; readonly pages?: Map<string, unknown>; readonly contexts?: Map<string, unknown> };
    readonly state: { readonly orchestrators: Map<string, unknown> };
  };
  readonly _browserReadySessions?: Set<string>;
}

/**
 * Closes the Chromium each browser project launched, keeping vitest's Vite server: the provider
 * forgets the browser (its next page launches a new one) and the project its finished page
 * sessions (the next run opens a new page). vitest has no public call for this: provider.close()
 * would mark the provider closed for good. Waits until the pages' connections are gone.
 */
async function relaunchBrowsers(projects: readonly TestProject[]): Promise<void> {
  for (const project of projects as ReadonlyArray<TestProject & BrowserInternals>) {
    const browser = project.browser;
    if (!browser) continue;
    const provider = browser.provider;
    const launched = provider.browser;
    provider.browser = null;
    provider.pages?.clear();
    provider.contexts?.clear();
    await launched?.close();
    project._browserReadySessions?.clear();
    for (let waited = 0; browser.state.orchestrators.size > 0 && waited < 10_000; waited += 20) await new Promise((done) => setTimeout(done, 20));
  }
}

/**
 * Starts vitest once for scenario files and runs them as often as asked, each run in ONE new
 * forked worker process (one backend, one device, started once and shared by all files): the
 * process, the unit of replication, is as fresh as a new command's. What a new command would
 * pay again and a session pays once is the parent's start (Node, tsx, the CLI's modules,
 * vitest's config and vite server) and vite's transform of the perf files and their imports,
 * which the server caches; each run still loads tfjs and starts its device in its own process.
 *
 * It runs in the current project (the working directory, or `root`): a user's project as much
 * as this repository. Its vitest config, if it has one, is loaded for what perf files may need
 * to load (aliases, plugins, setup files); the harness's preset settings (one forked process,
 * path order, timeouts), the include (exactly `files`) and the reporter are applied over it, so
 * a project's unit-test settings cannot change how a measurement runs. Without a config file
 * the preset alone applies. Unless `quiet`, a run shows its progress (`RunProgressReporter`),
 * or with `verbose` vitest's own per-test lines.
 */
export async function openScenarioSession(files: readonly ScenarioFile[], config: RunConfig, options: ScenarioSessionOptions = {}): Promise<ScenarioSession> {
  const root = resolve(options.root ?? process.cwd());
  const paths = files.map((f) => relative(root, resolve(root, f.path)));
  const reporter = new RunRecordReporter(config);
  const tmpDirs = tmpDirsRemovedOnExit();
  const projects: TestProject[] = [];
  const browser = options.browser ?? null;
  // In a browser the files share one page (isolate: false), as they share one forked process in Node.
  const host = browser ? await browserTestOptions(browser, () => reporter.config, options.commands) : {};
  const vitest: Vitest = await createVitest(
    'test',
    // Command-line options: vitest merges them over the config file's, replacing its arrays.
    // No exclude: the include is exactly the run's files, and a question's file lives in the package (node_modules in a user's project).
    { root, run: true, watch: false, ...GTP_TEST_SETTINGS, include: paths.map(literalGlob), exclude: [] },
    // The reporter instance goes here, not above: vitest deep-clones command-line options.
    // What shows while it runs: nothing (quiet: K processes, calibration), vitest's per-test lines
    // (verbose), else one progress line, the perf files' own lines and failures as they happen.
    {
      plugins: [provideRunConfig(config, projects, browser), tmpDirs.plugin],
      // The browser's provider is an instance too (runner/browser.ts): here, where it is not cloned.
      test: { ...host, reporters: options.quiet ? [reporter] : options.verbose ? ['default', reporter] : [new RunProgressReporter({ root }), reporter] },
    },
    // The workers' stderr reaches the console through this stream: without Dawn's limit notices.
    { stderr: dawnNoticeFilter() },
  );
  let runs = 0;
  return {
    async run(asked = config) {
      reporter.config = asked;
      for (const project of projects) project.provide('runConfig', asked);
      // The first run through start(): reporters' onInit, and no files is no record (not a throw).
      if (runs++ === 0) await vitest.start(paths).catch(ignoreFilesNotFound);
      else
        await vitest.runTestFiles(
          paths.map((p) => resolve(root, p)),
          true,
        );
      return reporter.record;
    },
    relaunchBrowser: () => relaunchBrowsers(projects),
    unhandledErrors: () => reporter.unhandledErrors,
    fileErrors: () => reporter.fileErrors,
    async close() {
      await vitest.close(); // removes the temp folders itself
      tmpDirs.dispose();
    },
  };
}

/** vitest.start() throws when no file matches the include; startVitest() swallows that too. */
function ignoreFilesNotFound(error: unknown): void {
  if ((error as { code?: unknown }).code !== 'VITEST_FILES_NOT_FOUND') throw error;
}

/** Runs scenario files once, in one new vitest worker process (one device), and returns their run record. */
export async function runScenarios(files: readonly ScenarioFile[], config: RunConfig, options: ScenarioSessionOptions = {}): Promise<RunRecord | null> {
  const session = await openScenarioSession(files, config, options);
  try {
    return await session.run();
  } finally {
    await session.close();
  }
}
