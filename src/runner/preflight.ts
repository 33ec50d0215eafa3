import { MissingToolError } from '../base/missing-tool.js';
import type { AnyDatasetSource, SourceContext } from '../data/source.js';
import { DATASET_SOURCES } from '../data/sources.js';
import type { SkippedScenario } from '../results/schema.js';
import { canonicalData, type DataSources } from '../run-config.js';
import { datasetsOf, describeDatasets } from './perf.js';
import type { ScenarioFile } from './scenarios.js';

/** What a run can measure, found before any device starts. */
export interface Preflight {
  /** What each data set holds, by name (for the run record). */
  readonly datasets: Record<string, string>;
  /** The scenario files to run: those asked for, less the skipped. */
  readonly files: ScenarioFile[];
  /** Scenarios not run for a missing tool, with the reason. */
  readonly skipped: SkippedScenario[];
}

/**
 * Reads each data source the scenarios need (describeDatasets), source by source. A source
 * whose tool is missing (ffmpeg for Kinetics: MissingToolError) skips the scenarios that read
 * it, with the reason, when the user asked for neither them (`named`: --scenario was given) nor
 * their data (--kinetics-root); then it is the user's to fix, as any other bad input (exit 2).
 */
export async function preflightScenarios(
  data: DataSources,
  files: readonly ScenarioFile[],
  context: SourceContext,
  named: boolean,
  sources: readonly AnyDatasetSource[] = DATASET_SOURCES,
): Promise<Preflight> {
  const given = canonicalData(data, process.cwd(), sources);
  const datasets: Record<string, string> = {};
  const skipped: SkippedScenario[] = [];
  let runnable = [...files];
  for (const source of sources) {
    const users = runnable.filter((f) => datasetsOf(f, sources).includes(source.name));
    if (users.length === 0) continue;
    try {
      Object.assign(datasets, await describeDatasets(data, users, context, [source]));
    } catch (error) {
      const cause = (error as Error).cause;
      if (named || (given[source.name] ?? null) !== null || !(cause instanceof MissingToolError)) throw error;
      for (const scenario of new Set(users.map((f) => f.id))) skipped.push({ scenario, reason: cause.reason });
      runnable = runnable.filter((f) => !users.includes(f));
    }
  }
  return { datasets, files: runnable, skipped };
}
