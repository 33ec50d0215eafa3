import { expect, it } from 'vitest';
import type { LeakCheck } from '../measure/memory.js';
import { exactMetric } from '../results/metrics.js';
import { scenarioOfPath } from '../results/scenario-file.js';
import { recordMetrics } from './record.js';

/**
 * The last test of a scenario: no tensor it created is still alive. Records
 * memory.leaked-tensors.<scenario of this perf file> (exact, must stay 0).
 */
export function itLeavesNoTensors(leaks: () => LeakCheck): void {
  it('leaves no tensors behind', async ({ task }) => {
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
