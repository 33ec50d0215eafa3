/**
 * A perf file's scenario id from its name, host-free (the page's leak check names its scenario
 * with it; scenario-file.ts reads the folders, in Node).
 */

// Optional two-digit order prefix, then the id in the alphabet of metric ids (lower-case
// letters, digits, '-'): scenario ids become parts of metric ids (memory.leaked-tensors.<id>).
export const FILE_PATTERN = /^(?:(\d{2})-)?([a-z0-9][a-z0-9-]*)\.(spec|perf)\.ts$/;

/** The scenario id of a perf file's path ('perf/06-speedup.perf.ts' -> 'speedup'); the path itself when it is not a scenario file. */
export function scenarioOfPath(path: string): string {
  return (path.split(/[\\/]/).pop() ?? path).match(FILE_PATTERN)?.[2] ?? path;
}
