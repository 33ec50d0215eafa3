import { runDoctorChecks } from '../doctor/doctor.js';
import { DEFAULT_MARGIN, EnvelopeInputError, writeEnvelope } from '../doctor/envelope-writer.js';
import { DoctorFileError } from '../doctor/files.js';
import { MachineRootError, resolveMachineRoot } from '../doctor/physical/sysfs.js';
import { formatCheck, formatFailures, formatSummary } from '../doctor/report.js';
import { writeJsonAtomic } from '../results/storage.js';
import { gitState } from '../runner/git.js';
import type { CommandLine } from './args.js';
import { checkOutput } from '../results/output-guard.js';
import { EXIT } from '../results/exit.js';

type DoctorArgs = Extract<CommandLine, { command: 'doctor' }>;

/**
 * `--write-envelope FILE`: the profile's envelope from doctor in --processes N processes of this
 * same command (the node binary, its flags, e.g. tsx's loader, and this CLI's main script), or
 * from the --from reports. Exit 0 written, 2 bad input (reports that cannot make one).
 */
async function writeEnvelopeCommand(args: DoctorArgs, out: string): Promise<number> {
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
