import { cocoSource } from './coco/source.js';
import { kineticsSource } from './kinetics/source.js';
import { mnistSource } from './mnist/source.js';
import type { AnyDatasetSource } from './source.js';

/**
 * Every data set the perf files read, in the order the usage text lists their flags. The one
 * list the command line (flags), the run configuration (defaults, fixtures), the runner (what
 * each selected scenario reads, described up front) and the session (loading) read: a new data
 * set is its folder in src/data/<name>/ with a source.ts, and one line here.
 */
export const DATASET_SOURCES: readonly AnyDatasetSource[] = [mnistSource, cocoSource, kineticsSource];

/** The sources a scenario reads: those that name it, else those that read every other scenario. */
export function sourcesOf(scenarioId: string, sources: readonly AnyDatasetSource[] = DATASET_SOURCES): AnyDatasetSource[] {
  const named = sources.filter((s) => s.scenarios !== 'others' && s.scenarios.includes(scenarioId));
  return named.length > 0 ? named : sources.filter((s) => s.scenarios === 'others');
}
