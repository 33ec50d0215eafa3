/** What a recording test leaves on its task for the run record, with no host access (Node's record.ts and the browser page's both use it). */
import type { TaskMeta } from 'vitest';
import type { RecordedByTest } from '../results/assemble.js';
import type { RunProfile } from '../results/schema.js';

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

export interface RecordingTask {
  meta: TaskMeta;
  file: { meta: TaskMeta };
}

/**
 * The test's recorded metrics, after noting on its file what the record needs from the host:
 * the profile and the data sets read so far (what the metrics could depend on). Node's
 * recordMetrics and the browser page's (browser-session.ts) both go through here.
 */
export function recordedOf(task: RecordingTask, profile: RunProfile, datasets: Record<string, string>): RecordedByTest {
  task.file.meta.hardwareProfile ??= profile;
  task.file.meta.datasetsRead = datasets;
  task.meta.perf ??= { metrics: [], kernelTables: {} };
  return task.meta.perf;
}
