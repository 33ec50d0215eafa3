import { DoctorFileError } from '../doctor/files.js';
import { MachineRootError, resolveMachineRoot } from '../doctor/physical/sysfs.js';
import { gitState } from '../runner/git.js';
import type { BackendArgs, CommandSpec } from './command-spec.js';
import { checkOutputs, writeJsonOutput, writeOutput } from '../results/output-guard.js';
import { EXIT } from '../results/exit.js';
import { UsageError } from './usage-error.js';
import { writeSync } from 'node:fs';
import { outputStream } from '../base/regular-file.js';
import type { DoctorReport } from '../doctor/schema.js';
import { HEALTH_DEADLINE_SECONDS as HEALTH_DEADLINE } from '../doctor/health-check.js';
import { rerunWithFilteredStderr, secondsSinceCommandStart, stderrUnfiltered } from './filtered-stderr.js';
import { availableParallelism } from 'node:os';

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
} & BackendArgs;

/**
 * `--write-envelope FILE`: the profile's envelope from doctor in --processes N processes of this
 * same command (the node binary, its flags, e.g. tsx's loader, and this CLI's main script), or
 * from the --from reports. Exit 0 written, 2 bad input (reports that cannot make one).
 */
async function writeEnvelopeCommand(args: DoctorArgs, out: string): Promise<number> {
  const { DEFAULT_MARGIN, EnvelopeInputError, writeEnvelope } = await import('../doctor/envelope-writer.js');
  try {
    const { envelope } = await writeEnvelope({
      out,
      from: args.from,
      processes: args.processes,
      margin: DEFAULT_MARGIN,
      includeBusy: false,
      note: null,
      quick: args.quick,
      backend: args.backend === 'auto' ? null : args.backend,
      force: args.force,
      selfCommand: [process.execPath, ...process.execArgv, process.argv[1]!],
      git: gitState().commit,
      say: (line) => console.log(line),
    });
    console.log(`envelope of ${envelope.profile}: ${out} (commit it beside the profile's baseline)`);
    return EXIT.pass;
  } catch (error) {
    if (!(error instanceof EnvelopeInputError || error instanceof DoctorFileError)) throw error;
    console.error(`error: ${error.message}`);
    return EXIT.badInput;
  }
}

/** The harness's version (its package.json: src/cli/ here, dist/cli/ in the package) and commit, for gtp_doctor_build_info. */
async function buildInfo(): Promise<import('../doctor/prometheus.js').BuildInfo> {
  const { readFile } = await import('node:fs/promises');
  const manifest = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return { version: manifest.version, revision: gitState().commit };
}

/** Writes the report as a node-exporter textfile: a temp name beside it (not *.prom, which the collector would read half-written), then a rename. */
async function writePrometheus(path: string, report: DoctorReport): Promise<void> {
  const { toPrometheusText } = await import('../doctor/prometheus.js');
  await writeOutput(path, toPrometheusText(report, await buildInfo()));
}

/** The one report --from names for --prometheus or --health-check (a DoctorFileError when it is not one). */
async function reportFrom(args: DoctorArgs): Promise<DoctorReport | null> {
  if (args.from.length === 0) return null;
  const { readDoctorReport } = await import('../doctor/files.js');
  return readDoctorReport(args.from[0]!);
}

/**
 * `--health-check`: doctor --quick (or the --from report) judged as a node health check: silent
 * and exit 0 when healthy, one line and exit 1 on a failed check, one line and exit 2 when it
 * could not measure (src/doctor/health-check.ts couldNotMeasure, it threw, or --deadline passed:
 * the deadline ends the process even when a device call never returns).
 */
async function runHealthCheck(args: DoctorArgs): Promise<number> {
  const { armDeadline, healthVerdict, otherMachineReason, unknownLine, HEALTH_EXIT } = await import('../doctor/health-check.js');
  const cancel = armDeadline(args.deadline, secondsSinceCommandStart(), () => {
    writeSync(1, `${unknownLine('this node', `no verdict within ${args.deadline} s, the --deadline; Slurm kills its HealthCheckProgram at 60 s`)}\n`);
    process.exit(HEALTH_EXIT.unknown);
  });
  try {
    let report = await reportFrom(args);
    // This machine as a profile names its host (backend/hardware-profile.ts; loaded only here: it loads tfjs).
    const here = async () => ({ cpu: (await import('../backend/hardware-profile.js')).hostCpuModel(), cores: Math.max(1, availableParallelism()) });
    const other = report && !args.fromOtherMachine ? otherMachineReason(report, await here()) : null;
    if (report && other) {
      console.log(unknownLine(report.profile?.id ?? 'this node', other));
      return HEALTH_EXIT.unknown;
    }
    if (!report) {
      const { runDoctorChecks } = await import('../doctor/doctor.js');
      report = await runDoctorChecks({ ...args, quick: true }, { check: () => undefined, note: () => undefined });
    }
    if (args.prometheus) await writePrometheus(args.prometheus, report);
    // The evidence behind the verdict, for whoever looks at a drained node.
    if (args.json) await writeJsonOutput(args.json, report);
    const verdict = healthVerdict(report);
    if (verdict.line) console.log(verdict.line);
    return verdict.exitCode;
  } catch (error) {
    // Could not measure: never a degraded node.
    console.log(unknownLine('this node', error instanceof Error ? `${error.name}: ${error.message}` : String(error)));
    return HEALTH_EXIT.unknown;
  } finally {
    cancel();
  }
}

/** `--from REPORT --prometheus FILE`: the textfile of a report already made, nothing measured. Exit 0 written, 2 a bad report. */
async function exportReport(args: DoctorArgs, out: string): Promise<number> {
  let report: DoctorReport;
  try {
    report = (await reportFrom(args))!;
  } catch (error) {
    if (!(error instanceof DoctorFileError)) throw error;
    console.error(`error: ${error.message}`);
    return EXIT.badInput;
  }
  const { formatSummary } = await import('../doctor/report.js');
  await writePrometheus(out, report);
  console.log(`${formatSummary(report)} (from ${args.from[0]})`);
  console.log(`prometheus textfile: ${out}`);
  return EXIT.pass;
}

/**
 * `npm run doctor`: prints each check as it is found, then the figures judged against the
 * profile's envelope and the physical verdicts; writes the report with --json. Exit 0 all ok
 * (warnings allowed), 1 a failed check, 2 bad usage (an unwritable --json, a --sysfs-root that is
 * not a copy of /sys: found before anything starts, one line).
 */
export async function runDoctor(args: DoctorArgs): Promise<number> {
  if (args.writeEnvelope) return writeEnvelopeCommand(args, args.writeEnvelope);
  await checkOutputs(
    [
      args.json ? { path: args.json, kind: 'doctor report', flag: '--json' } : null,
      args.prometheus ? { path: args.prometheus, kind: 'Prometheus textfile', flag: '--prometheus' } : null,
    ],
    args,
  );
  try {
    // A --sysfs-root that is not a copy of /sys is found before anything is printed or started.
    if (args.sysfsRoot) resolveMachineRoot(args.sysfsRoot);
  } catch (error) {
    if (!(error instanceof MachineRootError)) throw error;
    console.error(`error: ${error.message}`);
    return EXIT.badInput;
  }
  // A doctor that starts the device: once its outputs are checked, run as a child whose stderr is read without Dawn's notices (filtered-stderr.ts).
  if (args.from.length === 0 && args.sysfsRoot === null && stderrUnfiltered()) return rerunWithFilteredStderr(process.argv.slice(2));
  if (args.healthCheck) return runHealthCheck(args);
  if (args.prometheus && args.from.length > 0) return exportReport(args, args.prometheus);
  const { runDoctorChecks } = await import('../doctor/doctor.js');
  const { formatCheck, formatFailures, formatSummary } = await import('../doctor/report.js');
  const color = process.stdout.isTTY === true;
  const flags = [args.quick ? ', --quick' : '', args.expectGpu ? ', --expect-gpu' : '', args.sysfsRoot ? `, --sysfs-root ${args.sysfsRoot}` : ''].join('');
  console.log(`doctor: is this machine set up for gpu-transfer-perf? (--backend ${args.backend}${flags})`);
  const report = await runDoctorChecks(args, {
    check: (c) => console.log(formatCheck(c, color)),
    note: (line) => console.log(line),
  });
  for (const line of formatFailures(report)) console.log(line);
  console.log(`\n${formatSummary(report)}`);
  if (args.json) {
    await writeJsonOutput(args.json, report);
    console.log(`report: ${args.json}`);
  }
  if (args.prometheus) {
    await writePrometheus(args.prometheus, report);
    console.log(`prometheus textfile: ${args.prometheus}`);
  }
  return report.exitCode;
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
    'force',
  ],
  env: [{ usage: '  LD_LIBRARY_PATH         where CUDA libraries are looked for too (tensorflow backend)' }],
  exits: [
    '0 every check passed (warnings allowed); the envelope written',
    '1 a check failed',
    '2 bad usage or bad input (an unwritable --json, a --sysfs-root that is not a copy of /sys); could not',
    '  judge: a sysfs file that cannot be parsed (named; its device unknown); with --health-check: could not measure',
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
    };
  },
  run: runDoctor,
};
