/**
 * Global setup of the end-to-end run (vitest.e2e.config.ts): packs the harness once with
 * `npm pack`, whose prepack is the package's own build (tsconfig.build.json into dist/). Every
 * e2e file then starts that one build: the CLI as built JavaScript (`node dist/cli/main.js`, about
 * 1.2 s a start against the ~3.3 s of a tsx start that transforms the sources again: `--help`,
 * both measured on the 2-core CI machine), and the pack test installs that one tarball. No file
 * builds or packs again while others run.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';

const ROOT = resolve(import.meta.dirname, '../..');

/** `npm pack` of the repository into `into` (its prepack builds dist/); the tarball's path. */
export async function packHarness(into: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const { stdout } = await promisify(execFile)('npm', ['pack', '--pack-destination', into, '--json'], { cwd: ROOT, env, maxBuffer: 16 * 1024 * 1024 });
  return join(into, (JSON.parse(stdout) as Array<{ filename: string }>)[0]!.filename);
}

/**
 * The one pack of the run: every project of vitest.e2e.config.ts runs this setup in vitest's main
 * process, and the first starts the pack that all of them share (kept on globalThis, which their
 * separately loaded copies of this module have in common). Removed when the run ends.
 */
const ONE_PACK = Symbol.for('gpu-transfer-perf.e2e-pack');
type Shared = typeof globalThis & { [ONE_PACK]?: Promise<{ dir: string; tarball: string }> };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const shared = globalThis as Shared;
  const first = shared[ONE_PACK] === undefined;
  shared[ONE_PACK] ??= mkdtemp(join(tmpdir(), 'gtp-e2e-pack-')).then(async (dir) => ({ dir, tarball: await packHarness(dir) }));
  const { dir, tarball } = await shared[ONE_PACK];
  project.provide('packedHarness', tarball);
  project.provide('builtCli', join(ROOT, 'dist/cli/main.js'));
  return async () => {
    if (first) await rm(dir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The built CLI's entry (an e2e run only; absent in a plain `vitest run`). */
    builtCli?: string;
    /** The tarball `npm pack` made of this repository (an e2e run only; absent in a plain `vitest run`). */
    packedHarness?: string;
  }
}
