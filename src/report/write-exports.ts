import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { FileWriteError } from '../results/storage.js';
import { writeOutput } from '../results/output-guard.js';
import type { AbResult } from '../results/ab-result.js';
import type { ReportInput } from './exporter.js';
import { EXPORTERS, type ExporterEntry, type ExportingCommand, type ExportTarget } from './exporters.js';

/**
 * Appends `text` to the CI job summary: `jobSummary` is the file GitHub Actions names in
 * $GITHUB_STEP_SUMMARY (read by src/cli/args.ts, checked before measuring by checkJobSummary),
 * null outside CI (nothing written). Opened non-blocking and appended only if it is a regular
 * file (something swapped in since the check, a FIFO with no reader, cannot block the command);
 * any failure (disk full, folder gone) is a FileWriteError naming the file.
 */
export async function appendJobSummary(jobSummary: string | null, text: string): Promise<void> {
  if (!jobSummary) return;
  const fail = (code: string) => {
    const error = new FileWriteError(jobSummary, code);
    // An append cut short may have written part of the text: say so, not "unchanged".
    error.message = `GITHUB_STEP_SUMMARY=${jobSummary}: cannot append the job summary to it (${code})`;
    return error;
  };
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(jobSummary, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK, 0o666);
  } catch (error) {
    throw fail((error as NodeJS.ErrnoException).code ?? String(error));
  }
  try {
    if (!(await handle.stat()).isFile()) throw fail('not a regular file');
    await handle.appendFile(text);
  } catch (error) {
    if (error instanceof FileWriteError) throw error;
    throw fail((error as NodeJS.ErrnoException).code ?? String(error));
  } finally {
    await handle.close();
  }
}

/**
 * Writes each export target's format to its file (atomically) or stream (`-`: stdout) and, in GitHub Actions (`jobSummary`
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
  for (const { entry, path, flag } of targets) {
    const exporter = await entry.load();
    const nothing = exporter.nothing?.(input) ?? null;
    if (nothing === null) await writeOutput(path, await exporter.render(input, { color: false }));
    else notWritten(flag, path, nothing);
  }
  if (!jobSummary) return;
  for (const entry of exporters.filter((e) => e.jobSummary && e.commands.includes(command))) {
    await appendJobSummary(jobSummary, await (await entry.load()).render(input, { color: false }));
  }
}

/** Writes each export target's format of an A/B (`gtp ab --bmf FILE`, ...): the registry's formats that render one. */
export async function writeAbExports(result: AbResult, targets: readonly ExportTarget[]): Promise<void> {
  for (const { entry, path, flag } of targets) {
    const exporter = await entry.load();
    if (!exporter.renderAb) throw new Error(`the ${entry.format} exporter is listed for ab but renders no A/B`);
    const nothing = exporter.nothingAb?.(result) ?? null;
    if (nothing === null) await writeOutput(path, exporter.renderAb(result));
    else notWritten(flag, path, nothing);
  }
}

/** A format with nothing to hold is not written (a reader would reject it): said on stderr, the exit code unchanged (docs/ci.md). */
function notWritten(flag: string, path: string, why: string): void {
  console.error(`note: ${flag} ${path} not written: ${why} (docs/ci.md guards that step with hashFiles)`);
}
