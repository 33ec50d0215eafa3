import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * Where an installed package is, found the way Node finds it. Shared by doctor (which asks where
 * the harness's dependencies are, wherever npm put them) and the kit (which carries the folders
 * it finds). It lives here, not in src/kit, because the kit is left out of the built package.
 */

/** Packages the harness runs with besides package.json's dependencies: the suite runs under vitest (vite), sources under tsx. */
export const RUNTIME_TOOLS = ['vitest', 'vite', 'tsx'] as const;

/**
 * Node's lookup of package `name` from `fromDir`: `node_modules/<name>` in that folder and in
 * each parent, nearest first, up to `stopAt` (when given) or the file system root. A harness
 * installed as a dependency sits in `<project>/node_modules/gpu-transfer-perf`, and npm hoists
 * its dependencies into `<project>/node_modules`, so the harness's own folder is not enough.
 * Returns the package folder, or null when no folder on the way has it.
 */
export function resolvePackageDir(name: string, fromDir: string, stopAt?: string): string | null {
  const stop = stopAt === undefined ? undefined : resolve(stopAt);
  for (let dir = resolve(fromDir); ; ) {
    // As Node does, `node_modules/node_modules` is never searched.
    if (basename(dir) !== 'node_modules') {
      const candidate = join(dir, 'node_modules', name);
      if (existsSync(join(candidate, 'package.json'))) return candidate;
    }
    const parent = dirname(dir);
    if (parent === dir || dir === stop || (stop !== undefined && !dir.startsWith(stop))) return null;
    dir = parent;
  }
}

/** The version of `name` that Node would load from `fromDir`, or null when it is not installed. */
export function installedVersion(fromDir: string, name: string): string | null {
  const dir = resolvePackageDir(name, fromDir);
  if (dir === null) return null;
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: string }).version ?? null;
}
