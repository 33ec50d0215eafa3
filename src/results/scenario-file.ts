import { join } from 'node:path';
import { FILE_PATTERN } from './scenario-id.js';

export { scenarioOfPath } from './scenario-id.js';

/**
 * One scenario file of a perf folder (perf/ by default), run by `gtp perf`: 'name.spec.ts'
 * asserts correctness and exact metrics; 'name.perf.ts' times in interleaved rounds (the
 * harness's own sampler, statistics in the run record). An 'NN-' prefix orders the files (the
 * built-in ones carry the article's section number) and is not part of the id, so a user's
 * 'my-pipeline.perf.ts' and the built-in '06-speedup.perf.ts' follow one rule. 'name.bench.ts'
 * files are vitest `bench()` blocks for `npx vitest bench`, not run by `gtp perf` (bench() only
 * exists in vitest's bench mode).
 */
export interface ScenarioFile {
  /** The file's 'NN-' prefix (the built-in ones: the article section), e.g. '06'; null without one. */
  readonly number: string | null;
  /** Scenario id used by --scenario and in run records, e.g. 'speedup'. */
  readonly id: string;
  readonly kind: 'spec' | 'perf';
  /** Path relative to the project root. */
  readonly path: string;
}

/** The folder `gtp perf` reads scenario files from when none is named. */
export const DEFAULT_SCENARIO_DIR = 'perf';

/** Parses a perf file name; null for files that are not scenarios. */
export function parseScenarioFile(fileName: string, dir = DEFAULT_SCENARIO_DIR): ScenarioFile | null {
  const m = FILE_PATTERN.exec(fileName);
  if (!m) return null;
  return { number: m[1] ?? null, id: m[2]!, kind: m[3] as ScenarioFile['kind'], path: join(dir, fileName) };
}
