import type { AbResult } from '../results/ab-result.js';
import type { Comparison } from '../results/compare.js';
import type { RunRecord } from '../results/schema.js';

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
  /** Renders an A/B's verdicts (`gtp ab`); present on the formats the registry lists for 'ab'. */
  renderAb?(result: AbResult): string;
  /**
   * Why this format has nothing to hold for the run (a reader would reject the empty file), or
   * null: then nothing is written and the command says so (docs/ci.md guards the reader's step).
   */
  nothing?(input: ReportInput): string | null;
  /** The same for an A/B. */
  nothingAb?(result: AbResult): string | null;
}
