import Table from 'cli-table3';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { bytesPerOpOf } from '../suite/bench.js';

/** The fields of vitest's BenchmarkResult read here. */
interface BenchStatistics {
  readonly median: number;
  readonly p75: number;
  readonly p99: number;
  readonly rme: number;
  readonly hz: number;
  readonly sampleCount: number;
}

const ms = (x: number | undefined) => (x === undefined ? '' : x.toFixed(4));
const gbps = (bytesPerSecond: number) => `${(bytesPerSecond / 1e9).toFixed(3)} GB/s`;

/**
 * After `npx vitest bench`: the figures vitest's own table leaves out, per bench: the median
 * (p50) beside p75/p99, the relative margin of error, and the bytes per second delivered to the
 * device (ops/s x bytes per op, from the bench's name; see src/suite/bench.ts).
 */
export class BenchThroughputReporter implements Reporter {
  private vitest: Vitest | null = null;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const table = new Table({ head: ['bench', 'p50 ms', 'p75 ms', 'p99 ms', 'rme', 'ops/s', 'to the device'], style: { head: [], border: [] } });
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        // vitest keeps a bench's statistics (ms, from its bundled tinybench) on the task's result.
        const result = (this.vitest?.state.idMap.get(test.id)?.result as { benchmark?: BenchStatistics } | undefined)?.benchmark;
        if (!result?.sampleCount) continue;
        const bytes = bytesPerOpOf(test.name);
        table.push([
          test.name,
          ms(result.median),
          ms(result.p75),
          ms(result.p99),
          `±${result.rme.toFixed(2)}%`,
          result.hz.toFixed(0),
          bytes ? gbps(bytes * result.hz) : '',
        ]);
      }
    }
    if (table.length > 0) console.log(`\nLatency per operation, each stopped after a device sync (host clock):\n${table.toString()}`);
  }
}
