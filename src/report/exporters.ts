import type { OutputKind, OutputTarget } from '../results/output-guard.js';
import type { Exporter } from './exporter.js';

/** The commands that write a run's exports (ab: the formats whose exporter has `renderAb`). */
export type ExportingCommand = 'perf' | 'compare' | 'ab';

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

/** An export for another engine: written where its flag (named as the format) says, by every command that judges (perf, compare, ab). */
const engineExport = (format: string, usage: string, kind: OutputKind, load: ExporterEntry['load']): ExporterEntry => ({
  format,
  to: { flag: format, usage },
  kind,
  commands: ['perf', 'compare', 'ab'],
  load,
});
const BMF_USAGE = `  --bmf FILE              write the metrics as Bencher Metric Format JSON (bencher run
                          --adapter json --file FILE; docs/ci.md)`;
const JUNIT_USAGE = `  --junit FILE            write the verdicts as JUnit XML: a test case per metric and check, a
                          failure per regression or failed check (CI test panes)`;
const GAB_BIGGER_USAGE = `  --gab-bigger FILE       write the bigger-is-better metrics (speedups, rates) for
                          github-action-benchmark's customBiggerIsBetter tool (charts)`;
const GAB_SMALLER_USAGE = `  --gab-smaller FILE      write the smaller-is-better metrics (times, step-time ratios) for
                          github-action-benchmark's customSmallerIsBetter tool (charts)`;

/**
 * Every file format perf, compare and ab write, in the order they are written; the console report
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
  engineExport('bmf', BMF_USAGE, 'Bencher Metric Format file', async () => (await import('./bmf.js')).bmfExporter),
  engineExport('junit', JUNIT_USAGE, 'JUnit XML report', async () => (await import('./junit.js')).junitExporter),
  engineExport('gab-bigger', GAB_BIGGER_USAGE, 'github-action-benchmark file', async () => (await import('./github-benchmark.js')).gabBiggerExporter),
  engineExport('gab-smaller', GAB_SMALLER_USAGE, 'github-action-benchmark file', async () => (await import('./github-benchmark.js')).gabSmallerExporter),
];

/** The files `command`'s export flags name, by flag name (null: not given), each read with `str`. */
export const exportPaths = (command: ExportingCommand, str: (name: string) => string | null, exporters: readonly ExporterEntry[] = EXPORTERS) =>
  Object.fromEntries(exportFlagSpecs(command, exporters).map((f) => [f.name, str(f.name)]));

/** The flags `command` takes from the registry, as its help and parser declare them (ab: the formats it writes too). */
export const exportFlagSpecs = (command: ExportingCommand, exporters: readonly ExporterEntry[] = EXPORTERS) =>
  exporters.flatMap((e) => ('flag' in e.to && e.commands.includes(command) ? [{ name: e.to.flag, type: 'string' as const, usage: e.to.usage }] : []));

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
