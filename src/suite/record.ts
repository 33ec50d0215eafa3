import type { KernelTable } from '../measure/kernel-profile.js';
import type { LeakCheck } from '../measure/memory.js';
import type { RecordedByTest } from '../results/assemble.js';
import type { MetricInput } from '../results/metrics.js';
import { itLeavesNoTensorsRecorded } from './leak-spec.js';
import { type RecordingTask, recordedOf } from './record-meta.js';
import { datasetsRead, useRunBackend } from './session.js';

export type { RecordingTask } from './record-meta.js';

async function perfMeta(task: RecordingTask): Promise<RecordedByTest> {
  const profile = (await useRunBackend()).profile;
  // All files run in one process: the latest snapshot is the process's usage so far.
  task.file.meta.resourceUsage = process.resourceUsage();
  return recordedOf(task, profile, datasetsRead());
}

/** Adds metrics to the run record from inside a test; the scenario is the test's perf file. */
export async function recordMetrics(task: RecordingTask, ...metrics: MetricInput[]): Promise<void> {
  (await perfMeta(task)).metrics.push(...metrics);
}

/** The last test of a scenario: no tensor it created is still alive (leak-spec.ts), recorded in this run. */
export function itLeavesNoTensors(leaks: () => LeakCheck): void {
  itLeavesNoTensorsRecorded(leaks, recordMetrics);
}

/** Adds the kernel table of one profiled step (article sections 3 and 5) to the run record. */
export async function recordKernelTable(task: RecordingTask, name: string, table: KernelTable): Promise<void> {
  (await perfMeta(task)).kernelTables[name] = table;
}
