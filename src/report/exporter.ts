import { appendFile } from 'node:fs/promises';
import type { Comparison } from '../results/compare.js';
import type { RunRecord } from '../results/schema.js';
import { writeTextAtomic } from '../results/storage.js';
import { EXPORTERS, type ExporterEntry, type ExportingCommand, type ExportTarget } from './exporters.js';

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

/**
 * Writes each export target's format to its file (atomically) and, in GitHub Actions, the
 * command's job summary formats (Markdown) to the job summary, whether or not a file was asked for.
 */
export async function writeExports(
  input: ReportInput,
  command: ExportingCommand,
  targets: readonly ExportTarget[],
  env: NodeJS.ProcessEnv,
  exporters: readonly ExporterEntry[] = EXPORTERS,
): Promise<void> {
  for (const { entry, path } of targets) await writeTextAtomic(path, await (await entry.load()).render(input, { color: false }));
  if (!env.GITHUB_STEP_SUMMARY) return;
  for (const entry of exporters.filter((e) => e.jobSummary && e.commands.includes(command))) {
    await appendFile(env.GITHUB_STEP_SUMMARY, await (await entry.load()).render(input, { color: false }));
  }
}
