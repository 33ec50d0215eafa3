import { readdirSync } from 'node:fs';
import { join } from 'node:path';

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

// Optional two-digit order prefix, then the id in the alphabet of metric ids (lower-case
// letters, digits, '-'): scenario ids become parts of metric ids (memory.leaked-tensors.<id>).
const FILE_PATTERN = /^(?:(\d{2})-)?([a-z0-9][a-z0-9-]*)\.(spec|perf)\.ts$/;
const SCENARIO_SUFFIX = /\.(spec|perf)\.ts$/;

/** The folder `gtp perf` reads scenario files from when none is named. */
export const DEFAULT_SCENARIO_DIR = 'perf';

/** Parses a perf file name; null for files that are not scenarios. */
export function parseScenarioFile(fileName: string, dir = DEFAULT_SCENARIO_DIR): ScenarioFile | null {
  const m = FILE_PATTERN.exec(fileName);
  if (!m) return null;
  return { number: m[1] ?? null, id: m[2]!, kind: m[3] as ScenarioFile['kind'], path: join(dir, fileName) };
}

/**
 * Every scenario file in `dir` (relative to `root`; not its subfolders), in file-name order.
 * A *.spec.ts / *.perf.ts file whose name breaks the rule is an error, not silently skipped.
 */
export function listScenarios(root = process.cwd(), dir = DEFAULT_SCENARIO_DIR): ScenarioFile[] {
  const names = readdirSync(join(root, dir));
  const bad = names.filter((name) => SCENARIO_SUFFIX.test(name) && !FILE_PATTERN.test(name));
  if (bad.length > 0) {
    throw new RangeError(`${join(dir, bad[0]!)}: a scenario file is named [NN-]name.spec.ts or [NN-]name.perf.ts, name in lower-case letters, digits and '-'`);
  }
  return names
    .map((name) => parseScenarioFile(name, dir))
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
    const hits = all.filter(
      (s) => s.id === w || s.number === w.padStart(2, '0') || s.path.endsWith(`/${w}`) || (s.number !== null && `${s.number}-${s.id}` === w),
    );
    if (hits.length === 0) {
      // A scenario with both a spec and a perf file (coco, kinetics, dtypes) is one choice: named once.
      const known = new Set(all.map((s) => (s.number === null ? s.id : `${s.id} (${s.number})`)));
      throw new RangeError(`unknown scenario '${w}'. Known: ${[...known].join(', ')}`);
    }
    for (const h of hits) selected.add(h);
  }
  return all.filter((s) => selected.has(s));
}
