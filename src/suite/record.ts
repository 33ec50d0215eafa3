import type { TaskMeta } from 'vitest';
import type { KernelTable } from '../measure/kernel-profile.js';
import type { RecordedByTest } from '../results/assemble.js';
import type { MetricInput } from '../results/metrics.js';
import type { RunProfile } from '../results/schema.js';
import { datasetsRead, useRunBackend } from './session.js';

declare module 'vitest' {
  interface TaskMeta {
    /** What a perf test hands to the run record (serialized to the reporter in the main process). */
    perf?: RecordedByTest;
    /** The hardware profile of the run, set once per file by its first recording test. */
    hardwareProfile?: RunProfile;
    /** process.resourceUsage() of the test process at the file's last recording (noise diagnostics). */
    resourceUsage?: NodeJS.ResourceUsage;
    /** The data sets the test process had loaded (useDataset) at the file's last recording, in the record's words. */
    datasetsRead?: Record<string, string>;
  }
}

interface RecordingTask {
  meta: TaskMeta;
  file: { meta: TaskMeta };
}

async function perfMeta(task: RecordingTask): Promise<RecordedByTest> {
  task.file.meta.hardwareProfile ??= (await useRunBackend()).profile;
  // All files run in one process: the latest snapshot is the process's usage so far.
  task.file.meta.resourceUsage = process.resourceUsage();
  // What the metrics recorded so far could depend on: every data set loaded before them.
  task.file.meta.datasetsRead = datasetsRead();
  task.meta.perf ??= { metrics: [], kernelTables: {} };
  return task.meta.perf;
}

/** Adds metrics to the run record from inside a test; the scenario is the test's perf file. */
export async function recordMetrics(task: RecordingTask, ...metrics: MetricInput[]): Promise<void> {
  (await perfMeta(task)).metrics.push(...metrics);
}

/** Adds the kernel table of one profiled step (article sections 3 and 5) to the run record. */
export async function recordKernelTable(task: RecordingTask, name: string, table: KernelTable): Promise<void> {
  (await perfMeta(task)).kernelTables[name] = table;
}
