import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FROM_SOURCES } from '../base/commands.js';
import { HOST_BROWSER_MODULE } from './host-browser.js';
import { hasMeasureHost, type HostLaunch, MEASURE_HOST_ENTRY, PACKAGE_MEASURE_HOST_ENTRY } from './measure-host.js';

/**
 * Which harness measures a checkout (an arm of an A/B, a probe of a bisect). Each arm is
 * measured by its own harness, so that a commit is judged as it would run, not as today's
 * harness would run it:
 * - in this repository (the harness runs from its sources), the checkout's own sources, through
 *   the checkout's tsx;
 * - in a user's project (the harness runs as the installed package), the checkout's own
 *   node_modules/gpu-transfer-perf, its built dist/ started with plain node.
 */
export type HarnessSource = 'sources' | 'installed';

/** Where the harness runs now: its own repository, or installed in a user's project. */
export const HARNESS_SOURCE: HarnessSource = FROM_SOURCES ? 'sources' : 'installed';

/** The package's folder inside a checkout of a user's project. */
export const INSTALLED_HARNESS = 'node_modules/gpu-transfer-perf';

/** A checkout's harness: its version and how to start it. */
export interface ArmHarness {
  readonly source: HarnessSource;
  /** The version in its package.json (null: none readable). */
  readonly version: string | null;
  /** How its measure host starts; null: a harness from before the measure host (a command per process). */
  readonly host: HostLaunch | null;
  /** Whether its host measures in a browser too (--browser: a launch per request); else a `perf --browser` command per launch. */
  readonly hostTakesBrowser: boolean;
  /** How its `perf` command starts (program and arguments up to and including `perf`). */
  readonly perf: HostLaunch;
}

function versionOf(packageJson: string): string | null {
  try {
    const version = (JSON.parse(readFileSync(packageJson, 'utf8')) as { version?: unknown }).version;
    return typeof version === 'string' ? version : null;
  } catch {
    return null;
  }
}

/**
 * The harness of the checkout at `dir`, or null when it has none: in a user's project, no
 * installed gpu-transfer-perf (not a dependency at that commit, or its install failed). The
 * paths are absolute: the arm's processes run with the checkout as working directory.
 */
export function armHarness(dir: string, source: HarnessSource = HARNESS_SOURCE): ArmHarness | null {
  if (source === 'sources') {
    const tsx = join(dir, 'node_modules/.bin/tsx');
    return {
      source,
      version: versionOf(join(dir, 'package.json')),
      host: hasMeasureHost(dir) ? { command: tsx, args: [MEASURE_HOST_ENTRY] } : null,
      hostTakesBrowser: existsSync(join(dir, HOST_BROWSER_MODULE.sources)),
      perf: { command: tsx, args: ['src/cli/main.ts', 'perf'] },
    };
  }
  const root = join(dir, INSTALLED_HARNESS);
  if (!existsSync(join(root, 'package.json'))) return null;
  const host = join(root, PACKAGE_MEASURE_HOST_ENTRY);
  return {
    source,
    version: versionOf(join(root, 'package.json')),
    // process.execPath: the node that runs this command, as npx's bin would be run.
    host: existsSync(host) ? { command: process.execPath, args: [host] } : null,
    hostTakesBrowser: existsSync(join(root, HOST_BROWSER_MODULE.installed)),
    perf: { command: process.execPath, args: [join(root, 'dist/cli/main.js'), 'perf'] },
  };
}

/** Whether a package.json (its text) names gpu-transfer-perf among its dependencies of any kind. */
export function dependsOnHarness(packageJsonText: string): boolean {
  try {
    const manifest = JSON.parse(packageJsonText) as Record<string, unknown>;
    return ['dependencies', 'devDependencies', 'optionalDependencies'].some((field) => {
      const deps = manifest[field];
      return typeof deps === 'object' && deps !== null && 'gpu-transfer-perf' in deps;
    });
  } catch {
    return false;
  }
}
