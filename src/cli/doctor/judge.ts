import { HEALTH_EXIT, healthVerdict, otherMachineReason, unknownLine, unknownWhy } from '../../doctor/health-check.js';
import { EXIT } from '../../results/exit.js';
import type { DoctorMeasured } from './measure.js';
import type { DoctorPlan } from './plan.js';

/** What doctor measured, with its exit code and, for --health-check, the one line that says the verdict (null: healthy, silent). */
export type DoctorJudged = DoctorMeasured & { readonly exitCode: number; readonly line: string | null };

/** --health-check's verdict: a report's (health-check.ts healthVerdict), or UNKNOWN (exit 2) when it could not measure or the report is of another machine. */
function judgeHealth(measured: DoctorMeasured): DoctorJudged {
  if (measured.kind === 'unknown') return { ...measured, exitCode: HEALTH_EXIT.unknown, line: unknownLine('this node', measured.why) };
  if (measured.kind !== 'report') throw new Error(`doctor --health-check: nothing to judge in a ${measured.kind} result`);
  const { report, here } = measured;
  try {
    const other = here ? otherMachineReason(report, here) : null;
    if (other) return { kind: 'unknown', why: other, exitCode: HEALTH_EXIT.unknown, line: unknownLine(report.profile?.id ?? 'this node', other) };
    const verdict = healthVerdict(report);
    return { ...measured, exitCode: verdict.exitCode, line: verdict.line };
  } catch (error) {
    // Could not judge: never a degraded node.
    const why = unknownWhy(error);
    return { kind: 'unknown', why, exitCode: HEALTH_EXIT.unknown, line: unknownLine('this node', why) };
  }
}

/**
 * The judge phase of `doctor`: the exit code from plain values. The checks' own code (0 ok, 1 a
 * failed check, 2 a sysfs file that could not be parsed; src/doctor/doctor.ts), 0 for a report
 * exported or an envelope made, 2 for reports that cannot make one; --health-check's verdict.
 */
export function judgeDoctor(mode: DoctorPlan['mode'], measured: DoctorMeasured): DoctorJudged {
  if (mode === 'health') return judgeHealth(measured);
  switch (measured.kind) {
    case 'refused':
      return { ...measured, exitCode: EXIT.badInput, line: null };
    case 'report':
      return { ...measured, exitCode: mode === 'check' ? measured.report.exitCode : EXIT.pass, line: null };
    case 'envelope':
      return { ...measured, exitCode: EXIT.pass, line: null };
    case 'unknown':
      throw new Error(`doctor: an UNKNOWN verdict outside --health-check (${measured.why})`);
  }
}
