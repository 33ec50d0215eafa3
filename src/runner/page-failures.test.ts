import { describe, expect, it } from 'vitest';
import { transformWithOxc } from 'vite';
import { MAX_PAGE_METRIC_BYTES, MAX_PAGE_METRICS, pageMetricsRefusal } from '../suite/page-limits.js';
import { defaultRunConfig } from '../run-config.js';
import { closedDuring, hungReason, TEST_TIMEOUT_GRACE_S } from './browser-process.js';
import { parseErrorLine, RunRecordReporter } from './reporter.js';
import type { RunningTest } from './running-tests.js';

// Issue 51, items 4, 5 and 7: what a page that fails says, in one line; the pure parts, in-process
// (src/cli/browser-lost.e2e.test.ts runs each in a real page).

/** Vite's own transform error of a file that does not parse (the transformer its server runs). */
async function transformError(source: string, file: string): Promise<string> {
  try {
    await transformWithOxc(source, file);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a parse error');
}

describe('a perf file that does not parse (item 5)', () => {
  it("is said as file:line:col and the parse error, from Vite's transform error (colours and code frame dropped)", async () => {
    const message = await transformError("import { it } from 'vitest';\nit('x', () => {\n  const x = ;\n});\n", 'perf/browser/01-broken.perf.ts');
    expect(message.split('\n').length).toBeGreaterThan(3); // the code frame that was printed
    expect(parseErrorLine(message)).toBe('perf/browser/01-broken.perf.ts:3:13: Unexpected token');
    expect(parseErrorLine('Failed to import test file x: TypeError: Failed to fetch dynamically imported module')).toBeNull();
  });

  it("in a page: Vite's log of it is kept, not printed, and the file's error says it in one line", async () => {
    const reporter = new RunRecordReporter(defaultRunConfig({ backend: 'auto', requireBackend: null, scale: 'quick' }));
    const printed: string[] = [];
    const logger = { error: (...args: unknown[]) => printed.push(args.join(' ')) };
    reporter.onInit({ logger } as never);
    const frame = await transformError('const x = ;\n', 'perf/browser/01-broken.perf.ts');
    logger.error(`\u001b[31m[vite]\u001b[39m Internal server error: ${frame}\n      at transformWithOxc (file:///vite/dist/node.js:1:1)`);
    // Its dependency scan (a cache to rebuild) reports the same file through rolldown's build first.
    const scan = frame.replace(/^Transform failed with/, 'Build failed with');
    logger.error(
      `(!) Failed to run dependency scan. Skipping dependency pre-bundling. Error:   Failed to scan for dependencies from entries:\n  /work/perf/browser/01-broken.perf.ts\n\n  ${scan}\n    at scan (file:///rolldown.mjs:1:1)`,
    );
    logger.error('[vite] something else');
    expect(printed).toEqual(['[vite] something else']);
    const pageError = {
      message: 'Failed to import test file /work/perf/browser/01-broken.perf.ts',
      cause: { name: 'TypeError', message: 'Failed to fetch dynamically imported module: http://localhost:63316/work/perf/browser/01-broken.perf.ts' },
    };
    expect(reporter.fileErrorMessage(pageError as never)).toBe('perf/browser/01-broken.perf.ts:1:11: Unexpected token');
    // Node's error holds the frame itself; any other load error keeps its cause.
    expect(reporter.fileErrorMessage({ message: frame } as never)).toBe('perf/browser/01-broken.perf.ts:1:11: Unexpected token');
    expect(reporter.fileErrorMessage({ message: 'Cannot find package x', cause: { name: 'Error', message: 'y' } } as never)).toBe(
      'Cannot find package x: Error: y',
    );
  });
});

describe('a page that never settles (item 4)', () => {
  const test = (startedAt: number, timeoutMs = 180_000): RunningTest => ({ name: 'perf/browser/x.perf.ts > never settles', timeoutMs, startedAt });

  it('is hung at --browser-timeout when that comes first, the test named with its own timeout', () => {
    expect(hungReason([test(20_000)], 119_000, 120, 139_000)).toBeNull();
    expect(hungReason([test(20_000)], 120_000, 120, 140_000)).toBe(
      'the test perf/browser/x.perf.ts > never settles never settled: no result after 120 s (--browser-timeout; its own timeout is 180 s), 120 s in that test, so the page hung',
    );
    expect(hungReason([], 120_000, 120, 140_000)).toBe('no result after 120 s (--browser-timeout): the page hung');
  });

  it("is hung at the test's own timeout when that comes first (the page's timer did not report it within the grace)", () => {
    const short = test(0, 30_000);
    expect(hungReason([short], 30_000 + TEST_TIMEOUT_GRACE_S * 1000, 600, 30_000 + TEST_TIMEOUT_GRACE_S * 1000)).toBeNull();
    expect(hungReason([short], 41_000, 600, 41_000)).toBe(
      'the test perf/browser/x.perf.ts > never settles never settled: no result 41 s after it started, past its timeout of 30 s (the page did not report it), so the page hung',
    );
  });

  it('a browser that closed names the test it was in', () => {
    expect(closedDuring([test(1_000)], 61_000)).toBe(' during the test perf/browser/x.perf.ts > never settles, 60 s after it started and never settled');
    expect(closedDuring([], 61_000)).toBe('');
  });
});

describe('what a page may record (item 7)', () => {
  it('is bounded in count and in bytes, the bound said with its number in one line', () => {
    expect(pageMetricsRefusal({ metrics: 0, bytes: 0 }, { metrics: MAX_PAGE_METRICS, bytes: 1000 })).toBeNull();
    expect(pageMetricsRefusal({ metrics: 9_990, bytes: 1000 }, { metrics: 1_000_000, bytes: 1000 })).toBe(
      'recordMetrics: a page may record at most 10,000 metrics (all its tests together), and this call would make 1,009,990 (9,990 recorded, 1,000,000 more); record fewer, or summarize them (a median, a ratio) in one metric',
    );
    expect(pageMetricsRefusal({ metrics: 1, bytes: MAX_PAGE_METRIC_BYTES }, { metrics: 1, bytes: 1 })).toMatch(
      /^recordMetrics: a page may record at most 32\.0 MiB of metrics \(as JSON, all its tests together\), and this call would make 32\.0 MiB/,
    );
  });
});
