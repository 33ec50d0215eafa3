import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseOptions, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempFolder } from '../test/support/temp-folder.js';

/**
 * The layering of docs/layout.md, as the rules of .dependency-cruiser.mjs state it: `vitest run`
 * fails on an import against the one-way flow, a cycle, or a perf file that reaches into src/.
 * The rules are proven to fail on a tree built to break them, so a check that cannot fail
 * cannot pass for one that works.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

async function cruiseTree(baseDir: string, roots: string[]): Promise<{ result: ICruiseResult; options: ICruiseOptions }> {
  const options = await extractDepcruiseOptions(join(ROOT, '.dependency-cruiser.mjs'));
  const tsConfig = extractTSConfig(join(baseDir, 'tsconfig.json'));
  const reported = await cruise(roots, { ...options, baseDir }, undefined, { tsConfig });
  if (typeof reported.output === 'string') throw new Error('dependency-cruiser: expected the result object, got a report');
  return { result: reported.output, options };
}

/**
 * The browser entry's host-free rule (.dependency-cruiser.mjs HOST_FREE_RULES), cruised from
 * src/browser.ts and doctor's page without type-only imports: what the page really loads.
 */
async function cruiseHostFree(baseDir: string): Promise<ICruiseResult> {
  const { HOST_FREE_RULES } = (await import(join(ROOT, '.dependency-cruiser.mjs'))) as { HOST_FREE_RULES: IForbiddenRuleType[] };
  const options = await extractDepcruiseOptions(join(ROOT, '.dependency-cruiser.mjs'));
  const tsConfig = extractTSConfig(join(baseDir, 'tsconfig.json'));
  const run = { ...options, baseDir, tsPreCompilationDeps: false, ruleSet: { forbidden: HOST_FREE_RULES } };
  const roots = ['src/browser.ts', 'src/doctor/browser/doctor.perf.ts'].filter((root) => existsSync(join(baseDir, root)));
  const reported = await cruise(roots, run, undefined, { tsConfig });
  if (typeof reported.output === 'string') throw new Error('dependency-cruiser: expected the result object, got a report');
  return reported.output;
}

/** One line a violation, the rule's name and why first: what a failing test shows. */
const violationsOf = (result: ICruiseResult) =>
  result.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}${v.cycle ? ` (cycle ${v.cycle.map((c) => c.name).join(' > ')})` : ''}`);

describe('layering (docs/layout.md, .dependency-cruiser.mjs)', () => {
  it('src/, perf/ and questions/ keep the one-way flow: no back arrow, no cycle, perf files by the package name', async () => {
    const { result, options } = await cruiseTree(ROOT, ['src', 'perf', 'questions']);
    const comments = new Map(options.ruleSet?.forbidden?.map((r) => [r.name, r.comment]));
    expect(violationsOf(result).map((line) => `${line}\n  why: ${comments.get(line.split(':')[0]!)}`)).toEqual([]);
    // Every module of src/ stands in a layer (a new folder gets its place in LEVELS), tests aside.
    const layers = (options.ruleSet?.forbidden ?? []).filter((r) => r.name?.startsWith('layer-'));
    const inLayer = (source: string) => layers.some((r) => new RegExp(String((r.from as { path: string }).path)).test(source));
    const outside = result.modules.map((m) => m.source).filter((s) => s.startsWith('src/') && !/\.test\.ts$/.test(s) && !inLayer(s));
    expect(outside).toEqual([]);
  }, 60_000);

  it('what the browser page loads (gpu-transfer-perf/browser) is host-free: no Node built-in, no Node-only package', async () => {
    expect(violationsOf(await cruiseHostFree(ROOT))).toEqual([]);
  }, 60_000);

  describe('fails on a tree that breaks the rules', () => {
    const temp = tempFolder('gtp-layering-');
    let lines: string[] = [];
    const files: Record<string, string> = {
      'tsconfig.json': JSON.stringify({
        compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', paths: { 'gpu-transfer-perf': ['./src/index.ts'] } },
        include: ['src', 'perf'],
      }),
      'src/index.ts': "export { record } from './results/record.js';\n",
      // results -> report: a back arrow, and with the import back a cycle.
      'src/results/record.ts': "import { table } from '../report/table.js';\nexport const record = () => table;\n",
      'src/report/table.ts': "import { record } from '../results/record.js';\nexport const table = 1;\nexport const again = record;\n",
      // report -> results: the flow's own direction.
      'src/results/metric.ts': 'export const metric = 1;\n',
      'src/report/ok.ts': "import { metric } from '../results/metric.js';\nexport const ok = metric;\n",
      // The preset (vitest.ts) stands in the cli layer and may read cli/args.ts; the runner, below it, may not.
      'src/cli/args.ts': 'export const args = 1;\n',
      'src/vitest.ts': "import { args } from './cli/args.js';\nexport const shown = args;\n",
      'src/runner/other.ts': "import { args } from '../cli/args.js';\nexport const other = args;\n",
      // Test support: a test may use it, the harness may not.
      'test/support/records.ts': 'export const records = 1;\n',
      'src/results/uses-support.ts': "import { records } from '../../test/support/records.js';\nexport const bad = records;\n",
      // results/ reaching tfjs (hardware-profile.ts did) or vitest: no longer pure.
      'src/results/profile.ts': "import * as tf from '@tensorflow/tfjs';\nimport { expect } from 'vitest';\nexport const v = [tf.version, expect];\n",
      // The kernels entry reaching a package other than tfjs, two modules down: no longer light.
      'src/kernels.ts': "export { decode } from './transfer/decode.js';\n",
      'src/transfer/decode.ts':
        "import * as tf from '@tensorflow/tfjs';\nimport { z } from 'zod';\nimport { table } from './table.js';\nexport const decode = [tf.version, z, table];\n",
      'src/transfer/table.ts': "import { readFileSync } from 'node:fs';\nexport const table = readFileSync;\n",
      // The browser entry reaching a Node built-in and a Node-only package two modules down: no longer host-free.
      'src/browser.ts': "export { page } from './measure/page.js';\n",
      'src/measure/page.ts': "import { host } from './host.js';\nexport const page = host;\n",
      'src/measure/host.ts': "import os from 'node:os';\nimport sharp from 'sharp';\nexport const host = [os, sharp];\n",
      // doctor's page (gtp doctor --browser) reaching a Node built-in: no longer host-free either.
      'src/doctor/browser/doctor.perf.ts': "import { cpus } from './cpus.js';\nexport const page = cpus;\n",
      'src/doctor/browser/cpus.ts': "import { cpus } from 'node:os';\nexport { cpus };\n",
      'src/results/uses-support.test.ts': "import { records } from '../../test/support/records.js';\nexport const ok = records;\n",
      // A command's phase importing its command's module and the flag parser.
      'src/cli/thing.ts': 'export const thing = 1;\n',
      'src/cli/thing/plan.ts': "import { thing } from '../thing.js';\nimport { args } from '../args.js';\nexport const plan = [thing, args];\n",
      // A public entry importing another entry (each re-exports the layers below it only).
      'src/api/one.ts': "export { two } from './two.js';\n",
      'src/api/two.ts': "export { metric as two } from '../results/metric.js';\n",
      // A perf file by the package name, and one through ../src.
      'perf/01-good.perf.ts': "import { record } from 'gpu-transfer-perf';\nexport const good = record;\n",
      'perf/02-bad.perf.ts': "import { record } from '../src/results/record.js';\nexport const bad = record;\n",
    };

    beforeAll(async () => {
      for (const [path, text] of Object.entries(files)) {
        await mkdir(dirname(temp.at(path)), { recursive: true });
        await writeFile(temp.at(path), text);
      }
      lines = [...violationsOf((await cruiseTree(temp.path, ['src', 'perf'])).result), ...violationsOf(await cruiseHostFree(temp.path))];
    }, 60_000);

    it('a back arrow (results -> report) breaks layer-results', () => {
      expect(lines).toContain('layer-results: src/results/record.ts -> src/report/table.ts');
    });

    it('a cycle breaks no-circular (reported once, on one of its edges)', () => {
      expect(lines.filter((l) => l.startsWith('no-circular:'))).toEqual([
        'no-circular: src/report/table.ts -> src/results/record.ts (cycle src/results/record.ts > src/report/table.ts)',
      ]);
    });

    it('a perf file importing ../src breaks both perf rules; by the package name it passes', () => {
      expect(lines.filter((l) => l.startsWith('perf-'))).toEqual([
        'perf-imports-the-package: perf/02-bad.perf.ts -> src/results/record.ts',
        'perf-imports-the-public-entries: perf/02-bad.perf.ts -> src/results/record.ts',
      ]);
    });

    it("a command's phase importing its command or the flag parser breaks phases-never-reach-back", () => {
      expect(lines.filter((l) => l.startsWith('phases-'))).toEqual([
        'phases-never-reach-back: src/cli/thing/plan.ts -> src/cli/args.ts',
        'phases-never-reach-back: src/cli/thing/plan.ts -> src/cli/thing.ts',
      ]);
    });

    it('an entry importing another breaks api-entries-apart; the root re-exporting a layer directly, not an entry, breaks api-root-is-the-union', () => {
      expect(lines.filter((l) => l.startsWith('api-'))).toEqual([
        'api-entries-apart: src/api/one.ts -> src/api/two.ts',
        'api-root-is-the-union: src/index.ts -> src/results/record.ts',
      ]);
    });

    it('the harness importing test/support breaks test-support-for-tests-only; a test importing it passes', () => {
      expect(lines.filter((l) => l.startsWith('test-support-'))).toEqual([
        'test-support-for-tests-only: src/results/uses-support.ts -> test/support/records.ts',
      ]);
    });

    it('results/ importing tfjs or vitest breaks results-pure', () => {
      expect(lines.filter((l) => l.startsWith('results-pure:'))).toEqual([
        'results-pure: src/results/profile.ts -> @tensorflow/tfjs',
        'results-pure: src/results/profile.ts -> vitest',
      ]);
    });

    it('the kernels entry reaching any package but tfjs, at any depth, breaks kernels-entry-light', () => {
      // zod one module down, node:fs two down; tfjs is allowed.
      expect(lines.filter((l) => l.startsWith('kernels-entry-light:'))).toEqual([
        'kernels-entry-light: src/kernels.ts -> fs',
        'kernels-entry-light: src/kernels.ts -> zod',
      ]);
    });

    it("the browser entry or doctor's page reaching a Node built-in or a Node-only package, at any depth, breaks the host-free rules", () => {
      expect(lines.filter((l) => l.startsWith('browser-entry-'))).toEqual([
        'browser-entry-host-free: src/browser.ts -> os',
        'browser-entry-host-free: src/browser.ts -> sharp',
        'browser-entry-host-free: src/doctor/browser/doctor.perf.ts -> os',
      ]);
    });

    it('the runner reaching up to cli/args.ts breaks layer-runner; the preset in the cli layer and the flow direction pass', () => {
      expect(lines).toContain('layer-runner: src/runner/other.ts -> src/cli/args.ts');
      expect(lines.filter((l) => /src\/(vitest|report\/ok)\.ts ->/.test(l))).toEqual([]);
    });
  });
});
