import type { TaskMeta } from 'vitest';
import type { BackendContext } from '../backend/types.js';
import type { KernelTable } from '../measure/kernel-profile.js';
import { describeRunProfile } from './run-profile.js';
import type { Metric, RunProfile } from './schema.js';

/** What a perf test hands to the run record, through vitest's task.meta (serialized to the reporter). */
export interface PerfTaskMeta {
  profile: RunProfile;
  metrics: Metric[];
  kernelTables: Record<string, KernelTable>;
}

declare module 'vitest' {
  interface TaskMeta {
    perf?: PerfTaskMeta;
  }
}

function perfMeta(task: { meta: TaskMeta }, context: BackendContext): PerfTaskMeta {
  task.meta.perf ??= { profile: describeRunProfile(context), metrics: [], kernelTables: {} };
  return task.meta.perf;
}

/** Adds metrics to the run record from inside a test. */
export function recordMetrics(task: { meta: TaskMeta }, context: BackendContext, ...metrics: Metric[]): void {
  perfMeta(task, context).metrics.push(...metrics);
}

/** Adds a kernel table (article sections 3 and 5) to the run record. */
export function recordKernelTable(task: { meta: TaskMeta }, context: BackendContext, scenario: string, table: KernelTable): void {
  perfMeta(task, context).kernelTables[scenario] = table;
}
