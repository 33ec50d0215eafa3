import type { RunRecord } from '../../results/schema.js';
import { defaultRecordPath } from '../../results/storage.js';
import type { PerfPlan } from './plan.js';

/** A measured run and where its record will be written. */
export interface Measured {
  readonly record: RunRecord;
  /** The plan's --out, or results/<time>-<profile>.json now that the profile is known. */
  readonly recordPath: string;
}

/**
 * The measure phase of `perf`: runs the plan's scenarios in its processes (one after another,
 * one value per process per metric); null when no scenario reached a backend.
 */
export async function measurePerf(
  plan: Pick<PerfPlan, 'files' | 'config' | 'processes' | 'verbose' | 'skipped' | 'out' | 'browser'>,
): Promise<Measured | null> {
  const { measureInProcesses } = await import('../../runner/perf.js');
  const measured = await measureInProcesses(plan.files, plan.config, plan.processes, plan.verbose, plan.browser);
  if (!measured) return null;
  // Skipped before the run (a missing tool) and by the run's own tests (what the page cannot decode).
  const skipped = [...plan.skipped, ...(measured.skipped ?? [])];
  const record: RunRecord = skipped.length > 0 ? { ...measured, skipped } : measured;
  return { record, recordPath: plan.out ?? defaultRecordPath(record) };
}
