import { runDoctorChecks } from '../doctor/doctor.js';
import { formatCheck, formatFailures, formatSummary } from '../doctor/report.js';
import { writeJsonAtomic } from '../results/storage.js';
import type { CommandLine } from './args.js';
import { checkOutput } from '../results/output-guard.js';

type DoctorArgs = Extract<CommandLine, { command: 'doctor' }>;

/**
 * `npm run doctor`: prints each check as it is found, then the figures judged against the
 * profile's envelope; writes the report with --json. Exit 0 all ok (warnings allowed), 1 a
 * failed check, 2 bad usage (an unwritable --json is found before anything starts).
 */
export async function runDoctor(args: DoctorArgs): Promise<number> {
  if (args.json) await checkOutput({ path: args.json, kind: 'doctor report', flag: '--json' }, args);
  const color = process.stdout.isTTY === true;
  console.log(
    `doctor: is this machine set up for gpu-transfer-perf? (--backend ${args.backend}${args.quick ? ', --quick' : ''}${args.expectGpu ? ', --expect-gpu' : ''})`,
  );
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
