import { expect, it } from 'vitest';
import type { LeakCheck } from '../measure/memory.js';
import { exactMetric } from '../results/metrics.js';
import { scenarioOfPath } from '../results/scenario-id.js';
import type { MetricInput } from '../results/metrics.js';
import type { RecordingTask } from './record-meta.js';

/** How a host adds metrics to the run record: Node's session (suite/record.ts) or the page's (suite/browser-session.ts). */
export type RecordMetrics = (task: RecordingTask, ...metrics: MetricInput[]) => Promise<void>;

/**
 * The last test of a scenario: no tensor it created is still alive. Records
 * memory.leaked-tensors.<scenario of this perf file> (exact, must stay 0) through `recordMetrics`.
 * `skipped`: why the scenario measured nothing here, where it did not (the test is skipped with it).
 */
export function itLeavesNoTensorsRecorded(leaks: () => LeakCheck, recordMetrics: RecordMetrics, skipped: () => string | null = () => null): void {
  it('leaves no tensors behind', async ({ task, skip }) => {
    const why = skipped();
    if (why !== null) skip(why);
    const leaked = leaks().leakedTensors();
    expect(leaked).toBe(0);
    await recordMetrics(
      task,
      exactMetric(`memory.leaked-tensors.${scenarioOfPath(task.file.filepath)}`, leaked, 'tensors', 'measured', {
        detail: 'tf.memory().numTensors after the scenario minus before',
      }),
    );
  });
}
