import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One scenario file of perf/, run by `npm run perf`: 'NN-name.spec.ts' asserts correctness and
 * exact metrics; 'NN-name.perf.ts' times in interleaved rounds (the harness's own sampler,
 * statistics in the run record). 'NN-name.bench.ts' files are vitest `bench()` blocks for
 * `npx vitest bench`, not run by `npm run perf` (bench() only exists in vitest's bench mode).
 */
export interface ScenarioFile {
  /** Article section number, e.g. '06'. */
  readonly number: string;
  /** Scenario id used by --scenario and in run records, e.g. 'speedup'. */
  readonly id: string;
  readonly kind: 'spec' | 'perf';
  /** Path relative to the project root. */
  readonly path: string;
}

/** The files `npm run perf` runs, as vitest include globs. */
export const SCENARIO_GLOBS = ['perf/**/*.spec.ts', 'perf/**/*.perf.ts'] as const;

const FILE_PATTERN = /^(\d{2})-([a-z0-9-]+)\.(spec|perf)\.ts$/;

/** Parses a perf/ file name; null for files that are not scenarios. */
export function parseScenarioFile(fileName: string, dir = 'perf'): ScenarioFile | null {
  const m = FILE_PATTERN.exec(fileName);
  if (!m) return null;
  return { number: m[1]!, id: m[2]!, kind: m[3] as ScenarioFile['kind'], path: join(dir, fileName) };
}

/** Every scenario file in perf/, in section order. */
export function listScenarios(root = process.cwd()): ScenarioFile[] {
  return readdirSync(join(root, 'perf'))
    .map((name) => parseScenarioFile(name))
    .filter((s): s is ScenarioFile => s !== null)
    .sort((a, b) => a.path.localeCompare(b.path));
}

/** The scenario id of a perf/ file path, or the path itself when it is not a scenario. */
export function scenarioOfPath(path: string): string {
  return parseScenarioFile(path.split(/[\\/]/).pop() ?? path)?.id ?? path;
}

/**
 * Files selected by --scenario values: an id ('speedup'), a section number ('6' or '06'), or
 * a file name. Throws with the list of known scenarios on an unknown value.
 */
export function selectScenarios(all: readonly ScenarioFile[], wanted: readonly string[]): ScenarioFile[] {
  if (wanted.length === 0) return [...all];
  const selected = new Set<ScenarioFile>();
  for (const w of wanted) {
    const hits = all.filter((s) => s.id === w || s.number === w.padStart(2, '0') || s.path.endsWith(`/${w}`) || `${s.number}-${s.id}` === w);
    if (hits.length === 0) {
      // A scenario with both a spec and a perf file (coco, kinetics, dtypes) is one choice: named once.
      const known = new Set(all.map((s) => `${s.id} (${s.number})`));
      throw new RangeError(`unknown scenario '${w}'. Known: ${[...known].join(', ')}`);
    }
    for (const h of hits) selected.add(h);
  }
  return all.filter((s) => selected.has(s));
}
