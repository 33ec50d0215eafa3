// Run by the kit's launcher (kit/run.mjs) before doctor, as `tsx src/kit/check-perf-flags.ts
// [perf flags]`: the flags checked the way `perf` checks its command line and --scenario
// values, so a typo exits 2 at once instead of after three doctor runs (issue 21 #13). Only
// what needs no data and no device is checked here; perf checks the rest before it measures.
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseCommandLine, UsageError } from '../cli/args.js';
import { resolvePackageDir } from '../doctor/packages.js';
import { listScenarios, selectScenarios } from '../runner/scenarios.js';
import { EXIT } from '../results/exit.js';

/**
 * What is wrong with these perf flags (as perf would say it), or null when perf will take them.
 * `env`: the variables perf would read (a test's own); undefined: the process's, read by
 * parseCommandLine (src/cli/args.ts, the one reader of the environment).
 */
export function perfFlagsProblem(flags: readonly string[], env?: NodeJS.ProcessEnv, root = process.cwd()): string | null {
  try {
    const args = parseCommandLine(['perf', ...flags], env);
    if (args.command !== 'perf') return null;
    selectScenarios(listScenarios(root), args.scenarios);
    // The kit carries no browser driver (src/kit/contents.ts isNotLoadedPackage): said here, at
    // once, rather than by perf after the doctor runs. Where the provider is installed (this
    // repository, a project), perf takes --browser.
    if (args.browser !== null && resolvePackageDir('@vitest/browser-playwright', root, root) === null) {
      return `--browser ${args.browser}: this kit runs the perf files in Node only; it carries no browser driver (@vitest/browser-playwright, playwright). Run perf --browser in the repository`;
    }
    return null;
  } catch (error) {
    // UsageError: the command line; RangeError: an unknown --scenario (perf says the same, exit 2).
    if (error instanceof UsageError || error instanceof RangeError) return error.message;
    throw error;
  }
}

// Run as a script (not imported by a test); realpath, since tsx reports this module by its real path.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  const problem = perfFlagsProblem(process.argv.slice(2));
  if (problem) {
    console.error(`error: ${problem}`);
    process.exitCode = EXIT.badInput;
  }
}
