import { expect, it } from 'vitest';
import type { BackendContext } from '../backend/types.js';
import type { LeakCheck } from '../measure/memory.js';
import { recordMetrics } from '../results/task-meta.js';

/**
 * The last test of a scenario: no tensor it created is still alive. Records
 * memory.leaked-tensors.<scenario> (exact, must stay 0).
 */
export function itLeavesNoTensors(scenario: string, state: () => { context: BackendContext; leaks: LeakCheck }): void {
  it('leaves no tensors behind', ({ task }) => {
    const { context, leaks } = state();
    const leaked = leaks.leakedTensors();
    expect(leaked).toBe(0);
    recordMetrics(task, context, {
      id: `memory.leaked-tensors.${scenario}`,
      scenario,
      kind: 'exact',
      value: leaked,
      unit: 'tensors',
      source: 'measured',
      detail: 'tf.memory().numTensors after the scenario minus before',
    });
  });
}
