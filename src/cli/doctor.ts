import { DoctorFileError } from '../doctor/files.js';
import { MachineRootError, resolveMachineRoot } from '../doctor/physical/sysfs.js';
import { writeJsonAtomic } from '../results/storage.js';
import { gitState } from '../runner/git.js';
import type { BackendArgs, CommandSpec } from './command-spec.js';
import { checkOutput } from '../results/output-guard.js';
import { EXIT } from '../results/exit.js';
import { UsageError } from './usage-error.js';

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

/**
 * `npm run doctor`: prints each check as it is found, then the figures judged against the
 * profile's envelope and the physical verdicts; writes the report with --json. Exit 0 all ok
 * (warnings allowed), 1 a failed check, 2 bad usage (an unwritable --json, a --sysfs-root that is
 * not a copy of /sys: found before anything starts, one line).
 */
export async function runDoctor(args: DoctorArgs): Promise<number> {
  if (args.writeEnvelope) return writeEnvelopeCommand(args, args.writeEnvelope);
  if (args.json) await checkOutput({ path: args.json, kind: 'doctor report', flag: '--json' }, args);
  try {
    // A --sysfs-root that is not a copy of /sys is found before anything is printed or started.
    if (args.sysfsRoot) resolveMachineRoot(args.sysfsRoot);
  } catch (error) {
    if (!(error instanceof MachineRootError)) throw error;
    console.error(`error: ${error.message}`);
    return EXIT.badInput;
  }
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
    await writeJsonAtomic(args.json, report);
    console.log(`report: ${args.json}`);
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
                          (a kit run's results/<time>/); repeatable`,
    },
    { name: 'processes', type: 'string', usage: '  --processes N           with --write-envelope: doctor processes to make it from (default 8)' },
    'force',
  ],
  env: [{ usage: '  LD_LIBRARY_PATH         where CUDA libraries are looked for too (tensorflow backend)' }],
  exits: [
    '0 every check passed (warnings allowed); the envelope written',
    '1 a check failed',
    '2 bad usage or bad input (an unwritable --json, a --sysfs-root that is not a copy of /sys)',
  ],
  parse: (line) => {
    const backend = line.run();
    const from = line.many('from');
    const writeEnvelope = line.str('write-envelope');
    if (from.length > 0 && writeEnvelope === null) throw new UsageError('doctor: --from names reports for --write-envelope FILE, which is missing');
    return {
      command: 'doctor',
      ...backend,
      expectGpu: line.flag('expect-gpu'),
      json: line.str('json'),
      quick: line.flag('quick'),
      force: line.flag('force'),
      ldLibraryPath: line.ldLibraryPath(),
      sysfsRoot: line.str('sysfs-root'),
      writeEnvelope,
      from,
      processes: line.count('processes', 8),
    };
  },
  run: runDoctor,
};
