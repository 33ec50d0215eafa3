import { appendFile } from 'node:fs/promises';
import { writeTextAtomic } from '../results/storage.js';
import type { ReportInput } from './exporter.js';
import { EXPORTERS, type ExporterEntry, type ExportingCommand, type ExportTarget } from './exporters.js';

/**
 * Appends `text` to the CI job summary: `jobSummary` is the file GitHub Actions names in
 * $GITHUB_STEP_SUMMARY (read by src/cli/args.ts), null outside CI (nothing written).
 */
export async function appendJobSummary(jobSummary: string | null, text: string): Promise<void> {
  if (jobSummary) await appendFile(jobSummary, text);
}

/**
 * Writes each export target's format to its file (atomically) and, in GitHub Actions (`jobSummary`
 * not null), the command's job summary formats (Markdown) to the job summary, whether or not a
 * file was asked for.
 */
export async function writeExports(
  input: ReportInput,
  command: ExportingCommand,
  targets: readonly ExportTarget[],
  jobSummary: string | null,
  exporters: readonly ExporterEntry[] = EXPORTERS,
): Promise<void> {
  for (const { entry, path } of targets) await writeTextAtomic(path, await (await entry.load()).render(input, { color: false }));
  if (!jobSummary) return;
  for (const entry of exporters.filter((e) => e.jobSummary && e.commands.includes(command))) {
    await appendJobSummary(jobSummary, await (await entry.load()).render(input, { color: false }));
  }
}
