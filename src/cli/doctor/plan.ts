import { readDoctorReport } from '../../doctor/files.js';
import { unknownWhy } from '../../doctor/health-check.js';
import { resolveMachineRoot } from '../../doctor/physical/sysfs.js';
import type { DoctorReport } from '../../doctor/schema.js';
import { checkOutputs } from '../../results/output-guard.js';
import type { BackendChoice, BackendName } from '../../backend/types.js';
import type { BrowserLaunch } from '../../runner/browser.js';
import type { BackendArgs } from '../command-spec.js';

/** What `doctor` is asked. */
export type DoctorArgs = {
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
  /** --prometheus FILE: the report as a node-exporter textfile (src/doctor/prometheus.ts). */
  readonly prometheus: string | null;
  /** --health-check: the node-health contract (src/doctor/health-check.ts): silent and 0, or one line and 1 or 2. */
  readonly healthCheck: boolean;
  /** --deadline S: with --health-check, seconds from start to a verdict (else exit 2). */
  readonly deadline: number;
  /** --from-other-machine: with --health-check --from, judge a report of another machine (else UNKNOWN). */
  readonly fromOtherMachine: boolean;
  /** --browser NAME: also check this browser's page (a supported name, checked by the parse step). */
  readonly browser: string | null;
  /** --browser-path PATH, else GTP_BROWSER_PATH (null: neither). */
  readonly browserPath: { readonly path: string; readonly from: '--browser-path' | 'GTP_BROWSER_PATH' } | null;
  /** --browser-timeout S (null: the default). */
  readonly browserTimeout: number | null;
} & BackendArgs;

/** What the doctor checks run with (src/doctor/doctor.ts DoctorOptions), from the flags. */
export interface DoctorChecksPlan {
  readonly backend: BackendChoice;
  readonly requireBackend: BackendName | null;
  readonly expectGpu: boolean;
  readonly quick: boolean;
  readonly ldLibraryPath: string | null;
  readonly sysfsRoot: string | null;
  /** --browser NAME, recorded in the report's settings (the page runs in the 'check' plan's `browser`). */
  readonly browser: string | null;
}

/** A --from report as read for --health-check: the report, or why it could not be read (then the verdict is UNKNOWN). */
export type ReportRead = { readonly path: string; readonly report: DoctorReport } | { readonly path: string; readonly unreadable: string };

/**
 * One `doctor` run as the later phases need it, by mode; no flag left to read. `startsDevice`:
 * the run starts this machine's device (then it runs as a child whose stderr is filtered, src/cli/filtered-stderr.ts).
 */
export type DoctorPlan =
  /** --write-envelope FILE: the envelope-writer checks FILE and reads the --from reports before any doctor runs. */
  | {
      readonly mode: 'envelope';
      readonly startsDevice: false;
      readonly out: string;
      readonly from: readonly string[];
      readonly processes: number;
      readonly quick: boolean;
      /** The backend each doctor process is asked for (null: auto). */
      readonly backend: string | null;
      readonly force: boolean;
    }
  /** --from REPORT --prometheus FILE: the textfile of a report already made, nothing measured. */
  | { readonly mode: 'export'; readonly startsDevice: false; readonly from: string; readonly report: DoctorReport; readonly prometheus: string }
  /** --health-check: the --from report, or doctor --quick here, judged as a node health check. */
  | {
      readonly mode: 'health';
      readonly startsDevice: boolean;
      readonly checks: DoctorChecksPlan;
      readonly from: ReportRead | null;
      readonly fromOtherMachine: boolean;
      readonly deadline: number;
      readonly json: string | null;
      readonly prometheus: string | null;
    }
  /** The checks on the console as they are found, then the summary; the report with --json, the textfile with --prometheus. */
  | {
      readonly mode: 'check';
      readonly startsDevice: boolean;
      readonly checks: DoctorChecksPlan;
      /** The first line: what is asked, with the flags that change it. */
      readonly heading: string;
      readonly json: string | null;
      readonly prometheus: string | null;
      /** Colours on the console: stdout is a terminal. */
      readonly color: boolean;
      /** --browser: the browser whose page is checked too, found and its version read; null: Node only. */
      readonly browser: BrowserLaunch | null;
    };

/** The --health-check --from report, or why it cannot be read (its verdict is then UNKNOWN, not a refusal). */
function readForHealth(path: string): Promise<ReportRead> {
  return readDoctorReport(path).then(
    (report) => ({ path, report }),
    (error: unknown) => ({ path, unreadable: unknownWhy(error) }),
  );
}

/**
 * The plan phase of `doctor`: every output checked writable and every input read before anything
 * starts. An unwritable output throws OutputPathError, a --sysfs-root that is not a copy of /sys
 * MachineRootError, an unusable --from report for --prometheus DoctorFileError, no usable --browser
 * BrowserSetupError: each exit 2. For
 * --health-check an unusable --from report is no refusal but its verdict (UNKNOWN): kept as `unreadable`.
 */
export async function planDoctor(args: DoctorArgs, color = process.stdout.isTTY === true): Promise<DoctorPlan> {
  // The envelope-writer checks its own output and reads the --from reports first (src/doctor/envelope-writer.ts makeEnvelope).
  if (args.writeEnvelope) {
    const { writeEnvelope: out, from, processes, quick, force } = args;
    return { mode: 'envelope', startsDevice: false, out, from, processes, quick, backend: args.backend === 'auto' ? null : args.backend, force };
  }
  await checkOutputs(
    [
      args.json ? { path: args.json, kind: 'doctor report', flag: '--json' } : null,
      args.prometheus ? { path: args.prometheus, kind: 'Prometheus textfile', flag: '--prometheus' } : null,
    ],
    args,
  );
  // A --sysfs-root that is not a copy of /sys is found before anything is printed or started.
  if (args.sysfsRoot) resolveMachineRoot(args.sysfsRoot);
  const checks: DoctorChecksPlan = {
    backend: args.backend,
    requireBackend: args.requireBackend,
    expectGpu: args.expectGpu,
    quick: args.quick,
    ldLibraryPath: args.ldLibraryPath,
    sysfsRoot: args.sysfsRoot,
    browser: args.browser,
  };
  const from = args.from[0] ?? null;
  const startsDevice = from === null && args.sysfsRoot === null;
  if (args.healthCheck) {
    // A health check is always --quick: it must give its verdict within the deadline.
    const { fromOtherMachine, deadline, json, prometheus } = args;
    const read = from === null ? null : await readForHealth(from);
    return { mode: 'health', startsDevice, checks: { ...checks, quick: true }, from: read, fromOtherMachine, deadline, json, prometheus };
  }
  if (args.prometheus && from !== null) return { mode: 'export', startsDevice: false, from, report: await readDoctorReport(from), prometheus: args.prometheus };
  const browser = await browserOf(args);
  const flags = [
    args.quick ? ', --quick' : '',
    args.expectGpu ? ', --expect-gpu' : '',
    args.sysfsRoot ? `, --sysfs-root ${args.sysfsRoot}` : '',
    browser ? `, --browser ${browser.name}` : '',
  ].join('');
  return {
    mode: 'check',
    startsDevice,
    checks,
    heading: `doctor: is this machine set up for gpu-transfer-perf? (--backend ${args.backend}${flags})`,
    json: args.json,
    prometheus: args.prometheus,
    color,
    browser,
  };
}

/**
 * The browser --browser names, found and its version read, and vitest's Playwright provider
 * loaded, before anything starts (as perf's plan finds it); none usable throws BrowserSetupError
 * saying how to install one or name it (exit 2).
 */
async function browserOf(args: DoctorArgs): Promise<BrowserLaunch | null> {
  if (args.browser === null) return null;
  const { findBrowser, loadBrowserProvider } = await import('../../runner/browser.js');
  const browser = findBrowser(args.browser, args.browserPath);
  await loadBrowserProvider();
  return args.browserTimeout === null ? browser : { ...browser, timeoutS: args.browserTimeout };
}
