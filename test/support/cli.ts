import { execFile } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import './built-cli.setup.js';

/** The project root, where the real CLI lives. */
export const ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/**
 * The command that starts the real CLI: the CLI built once by the e2e run's global setup
 * (vitest.e2e.config.ts), or else, in a plain `vitest run` of one file, the sources through tsx.
 */
function cliCommand(): readonly [string, string] {
  const built = inject('builtCli');
  return built ? [process.execPath, built] : [join(ROOT, 'node_modules/.bin/tsx'), join(ROOT, 'src/cli/main.ts')];
}

/**
 * How to start the measure host the way the CLI is started (cliCommand): the built one beside the
 * built CLI, so that its page's Vite server pre-bundles what the other e2e files' servers do (one
 * from the sources has other settings, and two settings on one dependency cache re-optimize each
 * other's: a page reloaded mid-run hung); undefined in a plain run of one file (the sources).
 */
export function measureHostCommand(): { readonly command: string; readonly args: readonly string[] } | undefined {
  const built = inject('builtCli');
  return built ? { command: process.execPath, args: [join(dirname(built), 'measure-host.js')] } : undefined;
}

/** How a CLI call differs from the default: the child's environment, its time limit. */
export interface CliOptions {
  /** Default: withEnv(). */
  readonly env?: NodeJS.ProcessEnv;
  readonly timeoutMs?: number;
  /** A command the CLI is started under, e.g. `unshare --mount sh -c ...` (the CLI's command line follows it). */
  readonly wrap?: readonly string[];
}

/**
 * The CLI's environment in a test: this process's without CI's backend choice (PERF_BACKEND,
 * PERF_REQUIRE_BACKEND) or its step summary (GITHUB_STEP_SUMMARY), then `vars` over it.
 */
export const withEnv = (vars: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  PERF_BACKEND: '',
  PERF_REQUIRE_BACKEND: '',
  GITHUB_STEP_SUMMARY: '',
  ...vars,
});

/** Runs the real CLI as a user does, in a child process; never throws on a non-zero exit. */
export async function cli(args: readonly string[], cwd = ROOT, options: CliOptions = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const [command, entry] = cliCommand();
  const env = options.env ?? withEnv();
  try {
    const [file, ...rest] = [...(options.wrap ?? []), command, entry, ...args];
    const { stdout, stderr } = await run(file!, rest, { cwd, env, timeout: options.timeoutMs ?? 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout: string; stderr: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout, stderr: e.stderr };
  }
}
