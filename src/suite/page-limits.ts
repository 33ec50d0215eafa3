/**
 * What one browser page may record (pure: the page loads it, and tests run it in Node). What a
 * page records reaches the Node host in vitest's messages, whose socket takes at most 100 MiB a
 * message: a million metrics overflowed it (`RangeError: Max payload size exceeded` from ws, an
 * unhandled 'error' event, and the CLI crashed with a stack). So a page records at most
 * MAX_PAGE_METRICS metrics of MAX_PAGE_METRIC_BYTES in all, and a test that would pass either is
 * refused in one line: it fails, and the rest of the run stands.
 */

/** The most metrics one page may record, all its tests together: 100 times what the whole of perf/browser/ records. */
export const MAX_PAGE_METRICS = 10_000;

/** The most bytes (as JSON) those metrics may take: a third of the socket's 100 MiB a message, for what vitest adds around them. */
export const MAX_PAGE_METRIC_BYTES = 32 * 1024 * 1024;

/** What a page has recorded, or a call would add. */
export interface PageRecording {
  readonly metrics: number;
  /** Their size as JSON. */
  readonly bytes: number;
}

const n = (x: number) => x.toLocaleString('en-US');
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** The refusal of a recording that would pass a page's bounds, in one line with the bound's number; null when it fits. */
export function pageMetricsRefusal(
  recorded: PageRecording,
  adding: PageRecording,
  max = { metrics: MAX_PAGE_METRICS, bytes: MAX_PAGE_METRIC_BYTES },
): string | null {
  const what = 'record fewer, or summarize them (a median, a ratio) in one metric';
  if (recorded.metrics + adding.metrics > max.metrics)
    return `recordMetrics: a page may record at most ${n(max.metrics)} metrics (all its tests together), and this call would make ${n(recorded.metrics + adding.metrics)} (${n(recorded.metrics)} recorded, ${n(adding.metrics)} more); ${what}`;
  if (recorded.bytes + adding.bytes > max.bytes)
    return `recordMetrics: a page may record at most ${mib(max.bytes)} of metrics (as JSON, all its tests together), and this call would make ${mib(recorded.bytes + adding.bytes)} (${mib(recorded.bytes)} recorded, ${mib(adding.bytes)} more); ${what}`;
  return null;
}
