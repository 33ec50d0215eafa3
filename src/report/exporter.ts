import { appendFile } from 'node:fs/promises';
import type { Comparison } from '../results/compare.js';
import type { RunRecord } from '../results/schema.js';
import { writeTextAtomic } from '../results/storage.js';

/** What every exporter is fed: one run record and, when there was a baseline, its comparison. */
export interface ReportInput {
  readonly record: RunRecord;
  /** Where the run record was written or read, or null. */
  readonly recordPath: string | null;
  readonly comparison: Comparison | null;
}

/** One output format of a run (hyperfine's src/export/ shape: one file per format, side by side). */
export interface Exporter {
  readonly format: string;
  /** Renders the whole report as text; `color` only where a terminal shows it. Async for formats that render charts. */
  render(input: ReportInput, options: { readonly color: boolean }): string | Promise<string>;
}

/** Writes each requested format to its file (atomically) and, in GitHub Actions, the Markdown to the job summary. */
export async function writeExports(
  input: ReportInput,
  targets: ReadonlyArray<{ exporter: Exporter; path: string | null }>,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  for (const { exporter, path } of targets) {
    if (path) await writeTextAtomic(path, await exporter.render(input, { color: false }));
  }
  const summary = targets.find((t) => t.exporter.format === 'markdown')?.exporter;
  if (summary && env.GITHUB_STEP_SUMMARY) await appendFile(env.GITHUB_STEP_SUMMARY, await summary.render(input, { color: false }));
}
