import type { OutputKind, OutputTarget } from '../results/output-guard.js';
import type { Exporter } from './exporter.js';

/** The commands that write a run's exports. */
export type ExportingCommand = 'perf' | 'compare';

/**
 * One output file format of a run, registered in EXPORTERS: where a command writes it, and
 * the exporter itself, loaded when a command writes it (so the command line, which reads this
 * list for its flags, does not load the chart renderer).
 */
export interface ExporterEntry {
  readonly format: string;
  /** Written where its flag names (`--markdown FILE`, with its usage line), or beside the run record (`.html`). */
  readonly to: { readonly flag: string; readonly usage: string } | { readonly beside: string };
  /** What the output guard calls a file of it ('Markdown verdict summary'; a new kind needs its recognizer there). */
  readonly kind: OutputKind;
  /** The commands that write it. */
  readonly commands: readonly ExportingCommand[];
  /** Also appended to the CI job summary ($GITHUB_STEP_SUMMARY) when there is one. */
  readonly jobSummary?: boolean;
  load(): Promise<Exporter>;
}

/**
 * Every file format perf and compare write, in the order they are written; the console report
 * is the terminal's (report/console.ts). A new format is its exporter file in src/report/ and
 * one line here: the flag, the output check and the writing follow from it.
 */
export const EXPORTERS: readonly ExporterEntry[] = [
  {
    format: 'markdown',
    to: { flag: 'markdown', usage: '  --markdown FILE         write the verdicts as Markdown (also appended to $GITHUB_STEP_SUMMARY)' },
    kind: 'Markdown verdict summary',
    commands: ['perf', 'compare'],
    jobSummary: true,
    load: async () => (await import('./markdown.js')).markdownExporter,
  },
  {
    format: 'json',
    to: { flag: 'json', usage: '  --json FILE             write the verdicts as JSON' },
    kind: 'JSON verdict file',
    commands: ['perf', 'compare'],
    load: async () => (await import('./json.js')).jsonExporter,
  },
  { format: 'html', to: { beside: '.html' }, kind: 'HTML report', commands: ['perf'], load: async () => (await import('./html.js')).htmlExporter },
];

/** The exports' flags (`markdown`, `json`): each a string option of perf and compare. */
export const exportFlags = (exporters: readonly ExporterEntry[] = EXPORTERS): string[] => exporters.flatMap((e) => ('flag' in e.to ? [e.to.flag] : []));

/** One file a command will write: the entry, its path, and how the output guard names it. */
export interface ExportTarget {
  readonly entry: ExporterEntry;
  readonly path: string;
  /** The flag that named it ('--markdown'), or what it is ('the HTML report beside --out'). */
  readonly flag: string;
}

/**
 * The files `command` writes: each format's flag value (`paths`, by flag name), or beside
 * `recordPath` (null: the run record's path is not known yet, so only the flagged ones).
 */
export function exportTargets(
  command: ExportingCommand,
  paths: Readonly<Record<string, string | null>>,
  besideRecord: ((extension: string, kind: OutputKind) => { path: string; flag: string }) | null,
  exporters: readonly ExporterEntry[] = EXPORTERS,
): ExportTarget[] {
  return exporters
    .filter((e) => e.commands.includes(command))
    .flatMap((entry) => {
      if ('flag' in entry.to) {
        const path = paths[entry.to.flag] ?? null;
        return path ? [{ entry, path, flag: `--${entry.to.flag}` }] : [];
      }
      return besideRecord ? [{ entry, ...besideRecord(entry.to.beside, entry.kind) }] : [];
    });
}

/** The targets as the output guard checks them, before anything is measured. */
export const exportOutputs = (targets: readonly ExportTarget[]): OutputTarget[] => targets.map((t) => ({ path: t.path, kind: t.entry.kind, flag: t.flag }));
