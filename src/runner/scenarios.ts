import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { notRegularReasonSync } from '../base/regular-file.js';
import { DEFAULT_SCENARIO_DIR, parseScenarioFile, type ScenarioFile } from '../results/scenario-file.js';

// The scenario file names are part of what a run record says (scenario ids in metric ids):
// results/ owns them; the names stay exported here for the runner's other files.
export { DEFAULT_SCENARIO_DIR, parseScenarioFile, type ScenarioFile, scenarioOfPath } from '../results/scenario-file.js';

const SCENARIO_SUFFIX = /\.(spec|perf)\.ts$/;

/** Where a project keeps perf files written for the page alone (gpu-transfer-perf/browser's own helpers), as this repository does. */
export const BROWSER_SCENARIO_DIR = 'perf/browser';

/**
 * The folder --browser runs measure by default: perf/browser/ where the project has one, else
 * perf/: a project's own perf files run in the page unchanged, their `gpu-transfer-perf` import
 * resolved to the page's entry by the package's `browser` export condition (Vite's, in vitest's
 * browser mode).
 */
export function browserScenarioDir(root = process.cwd()): string {
  return existsSync(resolve(root, BROWSER_SCENARIO_DIR)) ? BROWSER_SCENARIO_DIR : DEFAULT_SCENARIO_DIR;
}

/**
 * Every scenario file in `dir` (relative to `root`; not its subfolders), in file-name order.
 * A *.spec.ts / *.perf.ts file whose name breaks the rule is an error, not silently skipped.
 */
export function listScenarios(root = process.cwd(), dir = DEFAULT_SCENARIO_DIR): ScenarioFile[] {
  const names = readdirSync(resolve(root, dir));
  const bad = names.filter((name) => SCENARIO_SUFFIX.test(name) && parseScenarioFile(name) === null);
  if (bad.length > 0) {
    throw new RangeError(`${join(dir, bad[0]!)}: a scenario file is named [NN-]name.spec.ts or [NN-]name.perf.ts, name in lower-case letters, digits and '-'`);
  }
  // vitest would open a FIFO named like a scenario and wait on it forever: known from stat alone, named now.
  for (const name of names.filter((n) => SCENARIO_SUFFIX.test(n))) {
    const special = notRegularReasonSync(resolve(root, dir, name));
    if (special) throw new RangeError(`${join(dir, name)}: ${special.reason}; a scenario file must be a regular file`);
  }
  return names
    .map((name) => parseScenarioFile(name, dir))
    .filter((s): s is ScenarioFile => s !== null)
    .sort((a, b) => a.path.localeCompare(b.path));
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
