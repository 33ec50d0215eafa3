import type { Reporter, SerializedError, TestModule } from 'vitest/node';
import type { Scale } from '../run-config.js';
import { assembleRunRecord, type CollectedTest } from './assemble.js';
import { gitState } from './git.js';
import type { RunRecord } from './schema.js';

function collect(modules: ReadonlyArray<TestModule>): CollectedTest[] {
  const tests: CollectedTest[] = [];
  for (const module of modules) {
    for (const test of module.children.allTests()) {
      const result = test.result();
      tests.push({
        file: module.moduleId,
        name: test.fullName,
        state: result.state,
        errors: result.state === 'failed' ? result.errors.map((e) => e.message) : [],
        perf: test.meta().perf,
      });
    }
    // A file that failed to load or whose hooks threw has module-level errors.
    for (const error of module.errors()) {
      tests.push({ file: module.moduleId, name: '(file)', state: 'failed', errors: [error.message] });
    }
  }
  return tests;
}

/** Turns the metrics that perf tests attached to task.meta into one run record. */
export class RunRecordReporter implements Reporter {
  record: RunRecord | null = null;
  constructor(private readonly scale: Scale) {}

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    this.record = assembleRunRecord(collect(modules), {
      createdAt: new Date().toISOString(),
      scale: this.scale,
      git: gitState(),
      unhandledErrors: unhandledErrors.map((e) => e.message),
    });
  }
}
