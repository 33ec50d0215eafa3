import { DoctorFileError } from '../doctor/files.js';
import { HEALTH_DEADLINE_SECONDS as HEALTH_DEADLINE } from '../doctor/health-check.js';
import { MachineRootError } from '../doctor/physical/sysfs.js';
import { outputStream } from '../base/regular-file.js';
import { EXIT } from '../results/exit.js';
import { BrowserSetupError, unsupportedBrowser } from '../runner/browser-names.js';
import { BROWSER_PATH_FLAG, BROWSER_TIMEOUT_FLAG, browserPathEnv, browserTimeoutOf } from './browser-flags.js';
import type { CommandSpec, ParsedLine } from './command-spec.js';
import { judgeDoctor } from './doctor/judge.js';
import { armHealthDeadline, measureDoctor } from './doctor/measure.js';
import { type DoctorArgs, type DoctorPlan, planDoctor } from './doctor/plan.js';
import { writeDoctor } from './doctor/write.js';
import { rerunWithFilteredStderr, stderrUnfiltered } from './filtered-stderr.js';
import { UsageError } from './usage-error.js';

export type { DoctorArgs } from './doctor/plan.js';

/** The plan, or null when it refused an input (a --sysfs-root that is not a copy of /sys, a bad --from report, no usable --browser): said in one line. */
async function planOrRefuse(args: DoctorArgs): Promise<DoctorPlan | null> {
  try {
    return await planDoctor(args);
  } catch (error) {
    if (!(error instanceof MachineRootError || error instanceof DoctorFileError || error instanceof BrowserSetupError)) throw error;
    console.error(`error: ${error.message}`);
    return null;
  }
}

/**
 * `npm run doctor`: plan (outputs checked, inputs read), measure (each check printed as it is
 * found), judge, write (src/cli/doctor/). Exit 0 all ok (warnings allowed), 1 a failed check, 2
 * bad usage (an unwritable --json, a --sysfs-root that is not a copy of /sys: found before
 * anything starts, one line); --health-check's contract (src/doctor/health-check.ts).
 */
export async function runDoctor(args: DoctorArgs): Promise<number> {
  const plan = await planOrRefuse(args);
  if (!plan) return EXIT.badInput;
  // A doctor that starts the device: once its outputs are checked, run as a child whose stderr is read without Dawn's notices (filtered-stderr.ts).
  if (plan.startsDevice && stderrUnfiltered()) return rerunWithFilteredStderr(process.argv.slice(2));
  const cancel = plan.mode === 'health' ? armHealthDeadline(plan.deadline) : () => undefined;
  try {
    const measured = await measureDoctor(plan);
    return await writeDoctor(plan, judgeDoctor(plan.mode, measured));
  } finally {
    cancel();
  }
}

/**
 * --browser NAME, --browser-path, --browser-timeout: a supported browser (named before anything
 * loads), only where doctor measures this machine's checks; the path and timeout only with it.
 */
function browserOf(
  line: ParsedLine,
  mode: { readonly writeEnvelope: string | null; readonly from: readonly string[]; readonly healthCheck: boolean; readonly sysfsRoot: string | null },
): Pick<DoctorArgs, 'browser' | 'browserPath' | 'browserTimeout'> {
  const browser = line.str('browser');
  const browserPath = line.browserPath();
  const browserTimeout = browserTimeoutOf(line.str('browser-timeout'));
  if (browser === null) {
    if (browserPath?.from === '--browser-path') throw new UsageError('doctor: --browser-path goes with --browser chromium');
    if (browserTimeout !== null) throw new UsageError('doctor: --browser-timeout goes with --browser chromium');
    return { browser, browserPath: null, browserTimeout };
  }
  const unsupported = unsupportedBrowser(browser);
  if (unsupported) throw new UsageError(`doctor: ${unsupported}`);
  const other =
    mode.writeEnvelope !== null
      ? '--write-envelope'
      : mode.healthCheck
        ? '--health-check'
        : mode.sysfsRoot !== null
          ? '--sysfs-root'
          : mode.from.length > 0
            ? '--from'
            : null;
  if (other) throw new UsageError(`doctor: --browser checks this machine's browser; run it without ${other}`);
  return { browser, browserPath, browserTimeout };
}

/** `gtp doctor` (`npm run doctor` here): its flags, help, parse step and runner. */
export const doctorSpec: CommandSpec<DoctorArgs> = {
  name: 'doctor',
  summary: 'check that the backend and device are set up right',
  synopsis: '[options]',
  about: [
    'Checks that the backend and device are set up right: the adapter, the physical path, the',
    "measured bandwidth judged against physics and this profile's envelope.",
  ],
  options: [
    'run',
    { name: 'expect-gpu', type: 'boolean', usage: '  --expect-gpu            fail on a software adapter or a CPU fallback' },
    { name: 'quick', type: 'boolean', usage: '  --quick                 fewer sizes and repeats' },
    { name: 'json', type: 'string', usage: '  --json FILE             write the checks and figures as JSON' },
    {
      name: 'sysfs-root',
      type: 'string',
      usage: `  --sysfs-root DIR        judge a copy of a machine's /sys (e.g. fixtures/sysfs/<name>): the
                          physical verdicts (link, path minimum, NUMA, adapter match) only`,
    },
    {
      name: 'write-envelope',
      type: 'string',
      usage: `  --write-envelope FILE   make this profile's envelope (baselines/<profile>.doctor.json): doctor
                          in --processes N processes (default 8), or from --from PATH reports`,
    },
    {
      name: 'from',
      type: 'string',
      multiple: true,
      usage: `  --from PATH             with --write-envelope: a doctor report, or a folder of doctor*.json
                          (a kit run's results/<time>/); repeatable. With --prometheus or
                          --health-check: the one doctor report to use instead of measuring`,
    },
    {
      name: 'prometheus',
      type: 'string',
      usage: `  --prometheus FILE       also write the checks and figures for node exporter's textfile
                          collector (FILE ends in .prom; written to a temp name, then renamed)`,
    },
    {
      name: 'health-check',
      type: 'boolean',
      usage: `  --health-check          node health check (NHC, Slurm, node-problem-detector): --quick,
                          silent and exit 0 when healthy; one line and exit 1 on a failed
                          check, exit 2 when it could not measure`,
    },
    {
      name: 'from-other-machine',
      type: 'boolean',
      usage: `  --from-other-machine    with --health-check --from: judge a report made on another machine
                          (else UNKNOWN, exit 2, naming both)`,
    },
    {
      name: 'deadline',
      type: 'string',
      usage: `  --deadline S            with --health-check: seconds to a verdict, else exit 2 (default ${HEALTH_DEADLINE})`,
    },
    { name: 'processes', type: 'string', usage: '  --processes N           with --write-envelope: doctor processes to make it from (default 8; 1 to 200)' },
    {
      name: 'browser',
      type: 'string',
      usage: `  --browser chromium      also check headless Chromium in one launch (vitest browser mode, as
                          perf --browser): its WebGPU adapter and limits, whether WebGPU and
                          WebGL start and why not, tfjs upload rates beside Node's`,
    },
    BROWSER_PATH_FLAG,
    BROWSER_TIMEOUT_FLAG,
    'force',
  ],
  env: [{ usage: '  LD_LIBRARY_PATH         where CUDA libraries are looked for too (tensorflow backend)' }, browserPathEnv()],
  exits: [
    '0 every check passed (warnings allowed); the envelope written',
    '1 a check failed (with --browser: also a browser that crashed or a page that hung past --browser-timeout)',
    '2 bad usage or bad input (an unwritable --json, a --sysfs-root that is not a copy of /sys, no Chromium',
    '  for --browser); could not judge: a sysfs file that cannot be parsed (named; its device unknown); with',
    '  --health-check: could not measure',
  ],
  parse: (line) => {
    const backend = line.run();
    const from = line.many('from');
    const writeEnvelope = line.str('write-envelope');
    const prometheus = line.str('prometheus');
    const healthCheck = line.flag('health-check');
    if (from.length > 0 && writeEnvelope === null && prometheus === null && !healthCheck) {
      throw new UsageError(
        'doctor: --from names reports for --write-envelope FILE, or one report for --prometheus FILE or --health-check; none of them was given',
      );
    }
    if (writeEnvelope !== null && (prometheus !== null || healthCheck))
      throw new UsageError('doctor: --write-envelope makes an envelope; run --prometheus or --health-check on its own');
    if (writeEnvelope === null && from.length > 1) throw new UsageError(`doctor: --prometheus and --health-check take one --from report, got ${from.length}`);
    if (prometheus !== null && !prometheus.endsWith('.prom')) {
      throw new UsageError(`doctor: --prometheus ${prometheus}: node exporter's textfile collector reads only files named *.prom; name it so`);
    }
    if (line.str('deadline') !== null && !healthCheck) throw new UsageError('doctor: --deadline goes with --health-check');
    const browser = browserOf(line, { writeEnvelope, from, healthCheck, sysfsRoot: line.str('sysfs-root') });
    const fromOtherMachine = line.flag('from-other-machine');
    if (fromOtherMachine && !(healthCheck && from.length > 0)) throw new UsageError('doctor: --from-other-machine goes with --health-check --from REPORT');
    // The health check's stdout is its verdict alone (silent, or one line): a report there would be read as the verdict.
    const json = line.str('json');
    if (healthCheck && json !== null && outputStream(json) === 'stdout')
      throw new UsageError(`doctor: --health-check prints its verdict on stdout and nothing else; --json ${json} needs a file`);
    return {
      command: 'doctor',
      ...backend,
      expectGpu: line.flag('expect-gpu'),
      json,
      quick: line.flag('quick'),
      force: line.flag('force'),
      ldLibraryPath: line.ldLibraryPath(),
      sysfsRoot: line.str('sysfs-root'),
      writeEnvelope,
      from,
      processes: line.count('processes', 8),
      prometheus,
      healthCheck,
      deadline: line.count('deadline', HEALTH_DEADLINE),
      fromOtherMachine,
      ...browser,
    };
  },
  run: runDoctor,
};
