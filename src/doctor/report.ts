import type { Check, CheckStatus, DoctorReport } from './schema.js';

const MARK: Record<CheckStatus, string> = { ok: '[ok]  ', info: '[info]', warn: '[warn]', fail: '[FAIL]' };
const COLOR: Record<CheckStatus, string> = { ok: '\u001b[32m', info: '\u001b[2m', warn: '\u001b[33m', fail: '\u001b[31;1m' };

/** One console line of a check: its status mark and reason. */
export function formatCheck(check: Check, color = false): string {
  const mark = color ? `${COLOR[check.status]}${MARK[check.status]}\u001b[0m` : MARK[check.status];
  return `${mark} ${check.reason}`;
}

/** The closing line: counts by status, time taken, profile and envelope, exit code. */
export function formatSummary(report: DoctorReport): string {
  const count = (s: CheckStatus) => report.checks.filter((c) => c.status === s).length;
  const where = report.profile ? ` on ${report.profile.id}` : '';
  const envelope = report.envelope.path ? (report.envelope.found ? `, judged against ${report.envelope.path}` : ', no envelope') : '';
  return `doctor${where}: ${count('fail')} failed, ${count('warn')} warnings, ${count('ok')} ok in ${report.durationSeconds.toFixed(1)} s${envelope}; exit ${report.exitCode}`;
}

/** Failed checks again, after the figures, so the reason to act is the last thing read. */
export function formatFailures(report: DoctorReport): string[] {
  const failed = report.checks.filter((c) => c.status === 'fail');
  return failed.length === 0 ? [] : ['', 'Failed:', ...failed.map((c) => `  ${c.id}: ${c.reason}`)];
}
