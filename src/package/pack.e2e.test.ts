// The package as someone who is not this repository gets it: `npm pack` of the harness (its
// prepack builds dist/), installed into a temp copy of examples/own-pipeline, whose own perf
// file runs with `npx gtp perf` and is judged with `npx gtp compare` against the example's
// committed baseline. The copy then becomes a git repository of its own, where `npx gtp ab`
// compares its commits, each measured by its own installed harness, `npx gtp bisect` finds the
// commit that made a strategy slower and `npx gtp calibrate` measures its spreads. Real
// processes, real git, real device, nothing mocked.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, cp, lstat, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readDoctorReport } from '../doctor/files.js';
import { doctorReportSchema } from '../doctor/schema.js';
import { smallestDecidingGroupSize } from '../measure/permutation.js';
import type { AbResult, BisectResult } from '../results/ab-result.js';
import { sameDeviceOtherHost } from '../backend/fingerprint.js';
import { readBaseline } from '../results/baseline.js';
import { DEFAULT_PROCESS_ALPHA } from '../results/process-verdict.js';
import type { RunRecord } from '../results/schema.js';
import { readRunRecord } from '../results/storage.js';
import { withResolvedUrls } from '../runner/offline-lock.js';
import { bmfFindings, junitXsdFindings, readJunitAsTestReporter } from '../../test/support/export-validators.js';
import { asOtherCpu, OTHER_CPU_LAVAPIPE_ID, OTHER_CPU_MODEL } from '../../test/support/other-cpu.js';
import { packHarness } from '../../test/support/built-cli.setup.js';
import { chromiumsLeftBy, harnessChromiums } from '../../test/support/chromium.js';
import { descendantPids } from '../base/process-tree.js';
import { type LauncherSignal, signalledLauncher } from '../../test/support/launcher-signals.js';
import { signalExitCode } from '../results/exit.js';

const ROOT = resolve(import.meta.dirname, '../..');
const EXAMPLE = join(ROOT, 'examples/own-pipeline');
const COMMITTED_BASELINE = join(EXAMPLE, 'baselines/webgpu-lavapipe-amd-epyc-2c-x64.json');
const sh = promisify(execFile);

/** The example's batch: [8, 96, 96, 3] uint8 values. */
const ELEMENTS = 8 * 96 * 96 * 3;

// A clean environment: none of this vitest worker's VITEST_* variables (the child starts its own
// vitest), npm's cache found through HOME, the backend choice of CI kept. PERF_REQUIRE_BASELINE
// is left out: which baseline judges the run is decided below, by profile. Hermetic: every npm
// call takes its packages from npm's cache, which the repository's own `npm ci` (.ci/run) filled
// (npm_config_offline: a package missing there fails the test rather than fetching it), and a
// registry set for the test (npm_config_registry, e.g. an unreachable one) reaches the children.
const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, npm_config_offline: 'true' };
for (const name of ['PERF_BACKEND', 'PERF_REQUIRE_BACKEND', 'npm_config_cache', 'npm_config_registry', 'XDG_RUNTIME_DIR']) {
  if (process.env[name]) env[name] = process.env[name];
}

let work: string;
let project: string;
let perf: Outcome;
let record: RunRecord;

interface Outcome {
  readonly code: number;
  readonly output: string;
}

/** Everything the installed bin printed in the project, checked at the end for commands that do not exist there. */
const shown: string[] = [];

/** Runs the installed bin (`npx --no`: never fetch it) in the example copy, `more` added to its environment; resolves with its exit code. */
async function gtp(args: readonly string[], more: NodeJS.ProcessEnv = {}): Promise<Outcome> {
  const outcome = await (async () => {
    try {
      const { stdout, stderr } = await sh('npx', ['--no', 'gtp', ...args], { cwd: project, env: { ...env, ...more }, maxBuffer: 16 * 1024 * 1024 });
      return { code: 0, output: stdout + stderr };
    } catch (error) {
      const e = error as { code?: unknown; stdout?: string; stderr?: string };
      if (typeof e.code !== 'number') throw error;
      return { code: e.code, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
    }
  })();
  shown.push(outcome.output);
  return outcome;
}

/**
 * `npx --no gtp ARGS` in the project, signalled once `after` showed (issue 51, item 1): SIGTERM
 * to npx's pid (as `timeout` or a CI cancel send it: npm passes it to its `sh -c`, which dies and
 * leaves gtp orphaned, and gtp stops as on SIGTERM), or SIGINT to its process group (a terminal's
 * Ctrl-C: gtp gets it itself). Every process under npx ends within 5 s with the signal's exit
 * code, and `output` is not written.
 */
async function expectStoppedThroughNpx(
  args: readonly string[],
  output: string,
  signalled: Pick<LauncherSignal, 'after' | 'delayMs' | 'signal' | 'to' | 'until'>,
): Promise<void> {
  const stopped = await signalledLauncher({ command: ['npx', '--no', 'gtp', ...args], cwd: project, env, ...signalled });
  shown.push(stopped.output);
  expect(stopped.output).toContain(signalled.after);
  expect(stopped.untilHeld, 'signalled before what it waited for (a Chromium of the run) was seen').toBe(true);
  expect(stopped.survivors, stopped.output).toEqual([]);
  expect(stopped.code, stopped.output).toBe(signalExitCode(signalled.signal));
  await expect(lstat(join(project, output)), `${output} written after the signal`).rejects.toThrow(/ENOENT/);
}

/**
 * Makes the copy install `tarball` (a `file:` dependency, as `npm install <tarball>` writes it)
 * with a lockfile that needs nothing but npm's cache: the harness's own lockfile, whose tree
 * holds every package the tarball and the example need at its pinned version (npm ci leaves the
 * rest out), plus the tarball's entry. Without a `resolved` URL npm asks the registry for a
 * package's metadata to find its tarball; with one (any registry's: npm finds the tarball in its
 * cache by the integrity hash) it asks nothing, so `npm ci --offline` installs it all.
 */
async function writeOfflineLock(dir: string, tarball: string): Promise<void> {
  const registry = (await sh('npm', ['config', 'get', 'registry'], { env })).stdout.trim();
  const lock = JSON.parse(withResolvedUrls(await readFile(join(ROOT, 'package-lock.json'), 'utf8'), registry)) as {
    packages: Record<string, unknown>;
  };
  const harness = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
  const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
    dependencies: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const spec = `file:${relative(dir, tarball)}`;
  manifest.dependencies['gpu-transfer-perf'] = spec;
  await writeFile(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const packages: Record<string, unknown> = {
    ...lock.packages,
    '': { name: manifest.name, version: manifest.version, dependencies: manifest.dependencies, devDependencies: manifest.devDependencies },
  };
  const pick = ['version', 'license', 'dependencies', 'bin', 'engines', 'peerDependencies', 'peerDependenciesMeta'] as const;
  packages['node_modules/gpu-transfer-perf'] = {
    ...Object.fromEntries(pick.map((key) => [key, harness[key]])),
    resolved: spec,
    integrity: `sha512-${createHash('sha512')
      .update(await readFile(tarball))
      .digest('base64')}`,
  };
  await writeFile(join(dir, 'package-lock.json'), JSON.stringify({ ...lock, name: manifest.name, version: manifest.version, packages }, null, 2));
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'gtp-pack-test-'));
  // The e2e run's one tarball (test/support/built-cli.setup.ts); packed here when this file runs alone.
  const packed = inject('packedHarness') ?? (await packHarness(work, env));
  const tarball = join(work, basename(packed));
  if (packed !== tarball) await copyFile(packed, tarball);
  project = join(work, 'own-pipeline');
  await cp(EXAMPLE, project, { recursive: true, filter: (path) => !/^(node_modules|results)(\/|$)/.test(relative(EXAMPLE, path)) });
  await writeOfflineLock(project, tarball);
  await sh('npm', ['ci', '--no-audit', '--no-fund'], { cwd: project, env, maxBuffer: 16 * 1024 * 1024 });
  perf = await gtp(['perf', '--out', 'results/run.json']);
  record = await readRunRecord(join(project, 'results/run.json'));
}, 600_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the packed harness in a project of its own', () => {
  it("runs that project's perf files, not the built-in scenarios, into its results/", async () => {
    // Judged against the committed baseline: on its own profile fully; on a runner of another CPU
    // model as the same device on another host, by its exact metrics (the example measures no
    // allowance between CPUs, so its ratio is shown, not gated), and said.
    const committedId = (await readBaseline(COMMITTED_BASELINE)).profile.id;
    const sameProfile = record.profile.id === committedId;
    // Any other machine (not 2-core lavapipe): another device, whose baseline it is not (exit 3, said).
    expect(perf.code, perf.output).toBe(sameProfile || sameDeviceOtherHost(record.profile.id, committedId) ? 0 : 3);
    if (!sameProfile && sameDeviceOtherHost(record.profile.id, committedId))
      expect(perf.output).toMatch(/recorded on another CPU \(AMD EPYC; this run .*\): exact metrics only; ratios shown, not gated/);
    expect(record.errors).toEqual([]);
    expect(record.selection).toBeNull();
    expect(new Set(record.metrics.map((m) => m.scenario))).toEqual(new Set(['rgb-batches']));
    expect(record.metrics.map((m) => m.id).sort()).toEqual(
      [
        'memory.leaked-tensors.rgb-batches',
        'rgb-batches.max-abs-diff',
        'rgb-batches.speedup',
        // The host-state probe timed with its pairs (a covariate: recorded, never judged).
        'rgb-batches.speedup.host-probe',
        'rgb-batches.time.device-uint8',
        'rgb-batches.time.host-float32',
        'rgb-batches.wire-bytes.device-uint8',
        'rgb-batches.wire-bytes.host-float32',
        'rgb-batches.wire-bytes.ratio',
      ].sort(),
    );
  });

  it('records exact bytes on the wire (4 per value against 1), a paired ratio and no leaks', () => {
    const metric = (id: string) => record.metrics.find((m) => m.id === id)!;
    expect(metric('rgb-batches.wire-bytes.host-float32')).toMatchObject({ kind: 'exact', value: 4 * ELEMENTS, unit: 'B', source: 'measured' });
    expect(metric('rgb-batches.wire-bytes.device-uint8')).toMatchObject({ kind: 'exact', value: ELEMENTS, unit: 'B', source: 'measured' });
    expect(metric('rgb-batches.wire-bytes.ratio').value).toBe(4);
    expect(metric('memory.leaked-tensors.rgb-batches').value).toBe(0);
    const speedup = metric('rgb-batches.speedup');
    expect(speedup.kind).toBe('ratio');
    // 40 pairs; 80 when gtp perf suspected a regression against the baseline and measured once more, pooled.
    expect([40, 80]).toContain(speedup.n);
    expect(speedup.samples?.a).toHaveLength(speedup.n!);
    const [lo, hi] = speedup.ci!;
    expect(lo).toBeLessThanOrEqual(speedup.value);
    expect(hi).toBeGreaterThanOrEqual(speedup.value);
  });

  it('runs the same perf file unchanged in headless Chromium (gtp perf --browser chromium): the page entry by export condition, the same bytes', async () => {
    // perf/ as it is (no perf/browser/ in the project): its `gpu-transfer-perf` import resolves to
    // the page's entry through the package's `browser` export condition, in vitest's browser mode.
    const browser = await gtp(['perf', '--browser', 'chromium', '--out', 'results/browser.json']);
    // No browser baseline in the example: measured and recorded, nothing compared (exit 0).
    expect(browser.code, browser.output).toBe(0);
    expect(browser.output).toMatch(/No baseline for profile webgpu-chromium-\d+-/);
    const page = await readRunRecord(join(project, 'results/browser.json'));
    expect(page.errors).toEqual([]);
    expect(page.profile.id).toMatch(/^webgpu-chromium-\d+-/);
    const value = (id: string) => page.metrics.find((m) => m.id === id)?.value;
    // The page's WebGPU counts at the same API as Dawn's in Node: the same exact bytes, no leaks.
    expect(value('rgb-batches.wire-bytes.host-float32')).toBe(4 * ELEMENTS);
    expect(value('rgb-batches.wire-bytes.device-uint8')).toBe(ELEMENTS);
    expect(value('memory.leaked-tensors.rgb-batches')).toBe(0);
    expect(value('rgb-batches.speedup')).toBeGreaterThan(0);
  });

  // setup:system installs Debian's Chromium: a machine without it fails here, not skips.
  it('gtp doctor --browser chromium --quick from the installed package: the adapter and its limits, WebGPU and WebGL started, the page upload rates beside Node’s, exit 0, no browser left', async () => {
    // Doctor's page is a file inside node_modules here: its packages are pre-bundled by name, or
    // its tfjs would be served raw (it failed so: 'module is not defined' in long.js). Only this
    // run's browsers are watched (this test's descendants): another file's may run beside it.
    const { result: run, left } = await chromiumsLeftBy(() => gtp(['doctor', '--quick', '--browser', 'chromium', '--json', 'results/doctor-browser.json']));
    expect(run.code, run.output).toBe(0);
    const report = doctorReportSchema.parse(JSON.parse(await readFile(join(project, 'results/doctor-browser.json'), 'utf8')));
    expect(report.schemaVersion).toBe(3);
    expect(report.settings.browser).toBe('chromium');
    const browser = report.browser!;
    expect(browser).toMatchObject({ name: 'chromium', lost: null, version: expect.stringMatching(/^\d+\.\d+\.\d+\.\d+$/) });
    // perf's flags give SwiftShader; Chromium leaves its description empty, so it is named by what it is.
    expect(browser.adapter).toMatchObject({ vendor: 'google', architecture: 'swiftshader', name: 'swiftshader', isSoftware: true });
    expect(browser.adapter!.limits.maxBufferSize).toBeGreaterThanOrEqual(256 * 1024 * 1024);
    expect(browser.adapter!.limits.maxStorageBufferBindingSize).toBeGreaterThanOrEqual(128 * 1024 * 1024);
    expect(browser.webgpu).toMatchObject({ started: true, whyNot: null, running: 'webgpu', uploadError: null });
    expect(browser.webgl).toMatchObject({
      started: true,
      whyNot: null,
      running: 'webgl',
      uploadError: null,
      gl: { renderer: expect.stringMatching(/SwiftShader/) },
    });
    // doctor's --quick sizes, each a positive rate in GB/s, in the page on both APIs and in Node.
    const sizes = ['upload.64kib', 'upload.1mib', 'upload.16mib', 'upload.64mib'];
    for (const uploads of [browser.webgpu.uploads, browser.webgl.uploads, browser.node!.uploads]) {
      expect(uploads.map((f) => f.id)).toEqual(sizes);
      for (const figure of uploads) {
        expect(figure.unit).toBe('GB/s');
        expect(figure.value).toBeGreaterThan(0);
      }
    }
    const checks = new Map(report.checks.map((c) => [c.id, c]));
    expect(checks.get('browser.webgpu')?.status).toBe('ok');
    expect(checks.get('browser.webgl')?.status).toBe('ok');
    expect(checks.get('browser.webgpu.upload')?.reason).toMatch(
      /64 MiB \d.*GB\/s; Node \(webgpu, this run\) at 64 MiB: .* GB\/s, the page reaches .* of it; .* of the host memory copy/,
    );
    expect(run.output).toMatch(/\[ok\] {3}webgpu in chromium \d+: started; tfjs runs on webgpu \(adapter swiftshader\)/);
    expect(left, 'Chromium processes left behind').toEqual([]);
  }, 200_000);

  it('passes against its baseline (exit 0) and fails (exit 1) against one whose bytes differ', async () => {
    const committed = await readBaseline(COMMITTED_BASELINE);
    // On the profile of the committed baseline, that baseline judges (and gtp perf already did).
    // Elsewhere this run becomes the copy's baseline first, so both verdicts are still exercised.
    let baselinePath = relative(EXAMPLE, COMMITTED_BASELINE);
    if (record.profile.id === committed.profile.id) {
      expect(perf.output).toMatch(/Verdicts: .*exit 0/);
    } else {
      // Not yet a git repository (the A/B part below makes it one): accepted as from uncommitted work.
      const accepted = await gtp(['baseline', 'results/run.json', '--allow-dirty']);
      expect(accepted.code, accepted.output).toBe(0);
      baselinePath = `baselines/${record.profile.id}.json`;
    }
    const pass = await gtp(['compare', 'results/run.json']);
    expect(pass.code, pass.output).toBe(0);

    const baseline = JSON.parse(await readFile(join(project, baselinePath), 'utf8')) as { metrics: Array<{ id: string; value: number }> };
    const bytes = baseline.metrics.find((m) => m.id === 'rgb-batches.wire-bytes.device-uint8')!;
    bytes.value -= 4; // as if the device path had sent one word less before
    await writeFile(join(project, 'doctored.json'), JSON.stringify(baseline));
    const fail = await gtp(['compare', 'results/run.json', '--baseline', 'doctored.json']);
    expect(fail.code, fail.output).toBe(1);
    expect(fail.output).toMatch(/rgb-batches\.wire-bytes\.device-uint8/);
  });

  it("answers a question asked with flags from the package's own questions/ (gtp perf --shape)", async () => {
    // The project's own normalization (0-255 scale), which the device kernel must use.
    const own = ['--mean', '120,110,100', '--std', '60,55,50'];
    const asked = await gtp(['perf', '--shape', '2x16x16x3', ...own, '--out', 'results/shape.json']);
    expect(asked.code, asked.output).toBe(0);
    const record = await readRunRecord(join(project, 'results/shape.json'));
    const bytes = (id: string) => record.metrics.find((m) => m.id === id)?.value;
    expect(bytes('shape.2x16x16x3.upload-bytes.cpu-normalize')).toBe(4 * 2 * 16 * 16 * 3);
    expect(bytes('shape.2x16x16x3.upload-bytes.device-normalize')).toBe(2 * 16 * 16 * 3);
    // Both strategies agree on the device (the spec compares them) and every figure says whose normalization.
    expect(record.errors).toEqual([]);
    expect(record.metrics.some((m) => /120,110,100/.test(m.detail ?? ''))).toBe(true);
  });

  it('gtp doctor --quick finds every runtime package where npm put it (hoisted into the project)', async () => {
    const doctor = await gtp(['doctor', '--quick', '--json', 'results/doctor.json']);
    expect(doctor.output).not.toMatch(/runtime packages missing/);
    expect(doctor.output).toMatch(/\[ok\] {3}\d+ runtime packages present at their pinned versions/);
    const report = await readDoctorReport(join(project, 'results/doctor.json'));
    expect(report.checks.find((c) => c.id === 'packages')?.status).toBe('ok');
    expect(report.checks.find((c) => c.id === 'backend.wasm')?.status).toBe('ok');
    // Only the device may fail doctor here (no backend starts, a wrong kernel, a figure out of its
    // range); a software adapter is a warning without --expect-gpu, so lavapipe exits 0.
    const failed = report.checks.filter((c) => c.status === 'fail');
    expect(failed.filter((c) => !/^(backend|backend\.webgpu|webgpu\..+|device\..+|figure\..+)$/.test(c.id))).toEqual([]);
    expect(doctor.code, doctor.output).toBe(failed.length > 0 ? 1 : 0);
  });

  it("measures the docs' plain-tfjs host pattern right: 4 B per value counted, nothing skipped", async () => {
    // docs/own-pipeline.md's host strategy as a user writes it: a plain tfjs tensor from host
    // values, no context.upload; webgpu uploads such a tensor lazily, so the harness must.
    await mkdir(join(project, 'perf-plain'), { recursive: true });
    await writeFile(
      join(project, 'perf-plain/plain.perf.ts'),
      `import * as tf from '@tensorflow/tfjs';
import { expect, it } from 'vitest';
import { bytesMetric, countTransfers, recordMetrics, timeSynced, useBackend } from 'gpu-transfer-perf';

it('the plain pattern', async ({ task }) => {
  const context = await useBackend();
  const values = new Float32Array(2 * 16 * 16 * 3).fill(0.25);
  const ms = await timeSynced(context, () => tf.tensor4d(values, [2, 16, 16, 3]));
  const { result, bytes } = await countTransfers(context, () => tf.tensor4d(values, [2, 16, 16, 3]));
  result.dispose();
  expect(ms).toBeGreaterThan(0);
  await recordMetrics(task, bytesMetric('plain.upload-bytes', bytes.dataBytes, 'measured', { detail: 'tf.tensor4d of host float32 values, counted until on the device' }));
});
`,
    );
    // Judged against no baseline (its folder has none): the project's baseline is of its own perf files.
    const run = await gtp(['perf', '--dir', 'perf-plain', '--baselines', 'perf-plain', '--out', 'results/plain.json']);
    expect(run.code, run.output).toBe(0);
    const plain = await readRunRecord(join(project, 'results/plain.json'));
    expect(plain.errors).toEqual([]);
    expect(plain.metrics.find((m) => m.id === 'plain.upload-bytes')?.value).toBe(4 * 2 * 16 * 16 * 3);
  });

  it('runs its perf file on tensorflow after the set-up script the package ships, run in the project: the bytes exact at the binding', async (ctx) => {
    // docs/own-pipeline.md's route: tfjs-node (not saved) on TensorFlow's C library from pip's
    // wheel, cached by version outside node_modules, so seconds here after this machine's first.
    const required = process.env.GTP_REQUIRE_TENSORFLOW === '1';
    // Offline (npm_config_offline) from npm's cache, under the registry the cache was filled from:
    // npm keys package metadata by registry, and the script installs by name (a test's unreachable
    // npm_config_registry would miss every entry; offline, none is fetched either way).
    const { npm_config_registry: _unreachable, ...cached } = env;
    const setup = await sh('bash', ['node_modules/gpu-transfer-perf/scripts/setup-tensorflow.sh'], {
      cwd: project,
      env: { ...cached, ...(required ? { GTP_REQUIRE_TENSORFLOW: '1' } : {}) },
    }).then(
      (r) => ({ code: 0, output: r.stdout + r.stderr }),
      (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: e.code ?? -1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` }),
    );
    expect(setup.code, setup.output).toBe(0);
    if (/^setup-tensorflow: skipped:/m.test(setup.output)) ctx.skip(setup.output.trim());
    expect(setup.output).toMatch(/@tensorflow\/tfjs-node 4\.22\.0 on TensorFlow 2\.21\.0/);
    // The project's own manifest and lockfile untouched: the backend is not saved.
    expect(JSON.parse(await readFile(join(project, 'package.json'), 'utf8')).dependencies).not.toHaveProperty('@tensorflow/tfjs-node');
    // Required to run there (CI requires webgpu for the other runs): never a fallback to another backend.
    const run = await gtp(['perf', '--backend', 'tensorflow', '--out', 'results/tensorflow.json'], { PERF_REQUIRE_BACKEND: 'tensorflow' });
    // No tensorflow baseline in the example: measured and recorded, nothing compared.
    expect(run.code, run.output).toBe(0);
    const tf = await readRunRecord(join(project, 'results/tensorflow.json'));
    expect(tf.errors).toEqual([]);
    expect(tf.profile.backend).toBe('tensorflow');
    expect(tf.profile.versions.tensorflow).toBe('2.21.0');
    const value = (id: string) => tf.metrics.find((m) => m.id === id)?.value;
    expect(value('rgb-batches.wire-bytes.host-float32')).toBe(4 * ELEMENTS);
    expect(value('rgb-batches.wire-bytes.device-uint8')).toBe(ELEMENTS);
    expect(value('memory.leaked-tensors.rgb-batches')).toBe(0);
  }, 240_000);

  it("stops a perf run on SIGTERM to npx's pid and on Ctrl-C (SIGINT to its group): every process gone, no record", async () => {
    const perf = (out: string) => ['perf', '--processes', '6', '--out', out];
    await expectStoppedThroughNpx(perf('results/sigterm.json'), 'results/sigterm.json', { after: 'process 1 of 6', delayMs: 500, signal: 'SIGTERM' });
    await expectStoppedThroughNpx(perf('results/sigint.json'), 'results/sigint.json', { after: 'process 1 of 6', delayMs: 500, signal: 'SIGINT', to: 'group' });
  }, 120_000);

  it("stops a browser perf run on SIGTERM to npx's pid: Chromium gone too, no record", async () => {
    // Six launches (one is about 3 s here, and over before a signal 1.5 s after its start), signalled in the first.
    await expectStoppedThroughNpx(
      ['perf', '--browser', 'chromium', '--processes', '6', '--out', 'results/sigterm-browser.json'],
      'results/sigterm-browser.json',
      {
        after: 'process 1 of 6',
        delayMs: 1_000,
        signal: 'SIGTERM',
        // Signalled while a Chromium of the run is up, so that "none left" is checked of one.
        until: async (npx) => {
          const under = new Set(descendantPids(npx));
          return [...(await harnessChromiums({ browsersOnly: true }))].some((pid) => under.has(pid));
        },
      },
    );
  }, 120_000);

  it('ships its device kernels to a plain Node script that loads no test or report library (gpu-transfer-perf/kernels)', async () => {
    // A resolve hook fails the import of anything but tfjs and node: itself; the script runs the
    // per-channel decode kernel on the cpu backend and prints a value.
    await writeFile(
      join(project, 'no-harness-libraries.mjs'),
      `export async function resolve(specifier, context, next) {
  if (/^(vitest|vite|@vitest|vega|vega-lite|sharp|mnist|zod|cli-table3|json-diff)(\\/|$)/.test(specifier)) throw new Error('the kernels entry loaded ' + specifier);
  return next(specifier, context);
}
`,
    );
    await writeFile(
      join(project, 'production.mjs'),
      `import { register } from 'node:module';
register('./no-harness-libraries.mjs', import.meta.url);
const tf = await import('@tensorflow/tfjs');
const kernels = await import('gpu-transfer-perf/kernels');
await tf.setBackend('cpu');
const pixels = new Uint8Array([0, 128, 255, 10, 20, 30]);
const out = kernels.sendPacked({ dtype: 'uint8', values: pixels, shape: [1, 1, 2, 3] }, { mean: [0, 128, 255], std: [1, 2, 5] });
console.log(JSON.stringify(Array.from(await out.data())));
`,
    );
    const { stdout } = await sh('node', ['production.mjs'], { cwd: project, env });
    expect(JSON.parse(stdout.trim())).toEqual([0, 0, 0, 10, -54, -45]);
  });

  it('installs at a size that fits a project: the harness adds under 200 MB beyond tfjs and what the project chose', async () => {
    const sizes = await installedShares(project);
    console.log(
      `[pack test] installed: node_modules ${mb(sizes.total)}; @tensorflow ${mb(sizes.tfjs)}; the harness and what it depends on, beyond tfjs ${mb(sizes.harness)} (largest: ${sizes.largest.map(([n, b]) => `${n} ${mb(b)}`).join(', ')})`,
    );
    expect(sizes.harness).toBeLessThan(200e6);
    // tfjs and vitest are the project's: one copy each, not the harness's own.
    expect(sizes.nestedTfjs).toEqual([]);
  });

  it("its report's first screen answers with the project's own ratio and a chart of it (Chromium)", async () => {
    const html = join(project, 'results/run.html');
    const browserDir = await mkdtemp(join(tmpdir(), 'gtp-pack-browser-'));
    const browser = await chromium.launchPersistentContext(browserDir, {
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu'],
    });
    try {
      const page = await browser.newPage();
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(pathToFileURL(html).href, { waitUntil: 'load' });
      const screen = await page.evaluate(() => ({
        first: document.querySelector('#at-a-glance > section h2')?.textContent ?? '',
        ratio: document.querySelector('#ratios table.own-ratios tbody tr code')?.textContent ?? '',
        chartTop: document.querySelector('#ratios figure.chart[data-chart="ratios"] svg')?.getBoundingClientRect().top ?? -1,
      }));
      expect(screen.first).toBe("1. What do this run's ratios say?");
      expect(screen.ratio).toBe('rgb-batches.speedup');
      // Drawn (vega is installed in this project) and on the first screen.
      expect(screen.chartTop).toBeGreaterThan(0);
      expect(screen.chartTop).toBeLessThan(900);
    } finally {
      await browser.close();
      await rm(browserDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('names the commands that work here in --help (npx gtp ab), each command its own flags, no npm script of the harness', async () => {
    // `gtp --help` would be npx's own help (npx reads a leading --help itself): `gtp help` lists the commands.
    const list = await gtp(['help']);
    expect(list.code, list.output).toBe(0);
    expect(list.output).toMatch(/^ {2}npx gtp ab --base REF +A\/B/m);
    const perfHelp = await gtp(['perf', '--help']);
    expect(perfHelp.code, perfHelp.output).toBe(0);
    expect(perfHelp.output).toMatch(/^Usage: npx gtp perf /m);
    expect(perfHelp.output).toMatch(/--shape NxHxWxC/);
    expect(perfHelp.output).not.toMatch(/--good|--base REF/);
    // The article's data flags are marked as acting on the built-in scenarios only.
    expect(perfHelp.output).toMatch(/Built-in scenarios only[^\n]*\n(?:.*\n)*? {2}--mnist-dir DIR/);
    const abHelp = await gtp(['ab', '--help']);
    expect(abHelp.output).toMatch(/^Usage: npx gtp ab --base REF/m);
    expect(abHelp.output).not.toMatch(/--shape|--mnist-dir/);
    for (const text of [list.output, perfHelp.output, abHelp.output]) expect(text).not.toMatch(/npm run|perf:ab/);
  });

  it('refuses an unknown flag with exit 2', async () => {
    const bad = await gtp(['perf', '--no-such-flag']);
    expect(bad.code).toBe(2);
    expect(bad.output).toMatch(/no-such-flag/);
  });
});

/**
 * The fewest processes per arm that can decide at the first look (an exact permutation test of
 * K + K values reaching alpha): a ~3x step is decided there, and CI time stays small.
 */
const K = String(smallestDecidingGroupSize(DEFAULT_PROCESS_ALPHA));

/** git in the example copy, with an identity of its own (a CI machine may have none). */
async function gitIn(...args: string[]): Promise<string> {
  const { stdout } = await sh('git', ['-c', 'user.name=pack test', '-c', 'user.email=pack@test.invalid', ...args], { cwd: project, env });
  return stdout.trim();
}

/** Commits everything in the copy (node_modules and results/ are ignored by its .gitignore). */
async function commitAll(message: string): Promise<void> {
  await gitIn('add', '-A');
  await gitIn('commit', '-q', '-m', message);
}

/** A docs-only commit: measures the same as its parent. */
async function docsCommit(line: string): Promise<void> {
  await writeFile(join(project, 'README.md'), `${await readFile(join(project, 'README.md'), 'utf8')}\n${line}\n`);
  await commitAll(`docs: ${line}`);
}

// The regression: device-uint8 does three real host passes (a checksum) over the batch before
// sending it, inside the timed region: ~1.2 ms on top of ~0.5 ms on lavapipe, so that strategy is
// about 3x slower (as in the issue that asked for this gate) and rgb-batches.speedup
// (host-float32 over device-uint8) drops by about two thirds.
const FAST = `function deviceUint8(context: BackendContext): StagedTransfer {
  return { ...deviceChannelNormalize(context, NORM), id: 'device-uint8' };
}`;
const SLOW = `let checksum = 0;
function deviceUint8(context: BackendContext): StagedTransfer {
  const fused = deviceChannelNormalize(context, NORM);
  return {
    ...fused,
    id: 'device-uint8',
    prepare(pixels) {
      let sum = 0;
      for (let pass = 0; pass < 3; pass++) for (let i = 0; i < pixels.length; i++) sum = (sum * 31 + pixels[i]!) | 0;
      checksum ^= sum;
      return fused.prepare(pixels);
    },
  };
}`;

describe('gtp ab, bisect and calibrate in that project, a git repository of its own', () => {
  const wall: Record<string, number> = {};
  const timed = async (step: string, args: readonly string[]): Promise<Outcome> => {
    const started = performance.now();
    const outcome = await gtp(args);
    // One progress line per measured process (ab, bisect's probes, calibrate).
    // ...and perf's own line per process under --processes K (1 when it prints none: one process).
    const pairs = outcome.output.match(/^\[gtp \w+\] (look \S+, )?pair /gm)?.length ?? 0;
    const ofK = outcome.output.match(/^\[gpu-transfer-perf\] process \d+ of \d+/gm)?.length ?? 0;
    const processes = pairs + ofK || (args[0] === 'perf' ? 1 : 0);
    wall[`${step} (${processes} processes)`] = (performance.now() - started) / 1000;
    return outcome;
  };

  beforeAll(async () => {
    // The history a user has: the project before its perf file, then the perf file.
    await gitIn('init', '-q');
    await gitIn('add', '-A', '--', '.', ':!perf');
    await gitIn('commit', '-q', '-m', 'the project, before its perf file');
    await commitAll('its perf file');
  }, 60_000);

  afterAll(() => {
    // What these steps add to CI, for docs/own-pipeline.md.
    console.log(
      `[pack test] wall seconds: ${Object.entries(wall)
        .map(([step, s]) => `${step} ${s.toFixed(1)}`)
        .join(', ')}`,
    );
  });

  it('says there is nothing to compare with a base that has no perf files: exit 3 and what to do', async () => {
    const none = await timed('ab, base without perf files', ['ab', '--base', 'HEAD~1', '--processes', K, '--ratios-only']);
    expect(none.code, none.output).toBe(3);
    expect(none.output).toMatch(/has no perf files in perf\//);
    expect(none.output).toMatch(/npx gtp perf/);
    expect(none.output).not.toMatch(/npm run/);
    // Its worktree is gone again.
    expect((await gitIn('worktree', 'list')).split('\n')).toHaveLength(1);
  });

  it("stops an A/B on SIGTERM to npx's pid: its processes gone, its worktrees removed, no verdicts written", async () => {
    await expectStoppedThroughNpx(['ab', '--base', 'HEAD', '--processes', K, '--json', 'results/ab-sigterm.json'], 'results/ab-sigterm.json', {
      after: 'look 1, pair 1/',
      delayMs: 1_000,
      signal: 'SIGTERM',
    });
    expect((await gitIn('worktree', 'list')).split('\n')).toHaveLength(1);
  }, 120_000);

  it('calls a commit that makes one strategy ~3x slower a regression (gtp ab --base HEAD~1): exit 1, naming the metric', async () => {
    await docsCommit('how to run it in CI');
    const file = join(project, 'perf/rgb-batches.perf.ts');
    const text = await readFile(file, 'utf8');
    expect(text).toContain(FAST);
    await writeFile(file, text.replace(FAST, SLOW));
    await commitAll('device-uint8: checksum each batch on the host before sending it');
    const slower = await timed('ab 3x step', ['ab', '--base', 'HEAD~1', '--processes', K, '--ratios-only']);
    expect(slower.code, slower.output).toBe(1);
    expect(slower.output).toMatch(/rgb-batches\.speedup .*regressed/);
  });

  it('a plain one-process gtp perf against a baseline accepted from a --processes 8 run: exit 1, naming the metric', async () => {
    // The baseline of the fast commit (HEAD~1), measured in 8 processes: its per-process values let one process be judged.
    // (Not 6, the fewest perf takes: t(5) widens the one-process bound enough that a loaded machine's 3x step came out inconclusive.)
    await gitIn('checkout', '-q', 'HEAD~1', '--', 'perf/rgb-batches.perf.ts');
    const several = await timed('perf --processes 8 at the fast commit', ['perf', '--processes', '8', '--out', 'results/k.json']);
    await gitIn('checkout', '-q', 'HEAD', '--', 'perf/rgb-batches.perf.ts');
    expect([0, 1]).toContain(several.code);
    // Accepted as from the fast commit's work (the tree held its perf file while it measured).
    const accepted = await gtp(['baseline', 'results/k.json', '--allow-dirty']);
    expect(accepted.code, accepted.output).toBe(0);
    const one = await timed('perf, one process, the 3x step', ['perf', '--out', 'results/one.json']);
    expect(one.code, one.output).toBe(1);
    expect(one.output).toMatch(/rgb-batches\.speedup/);
    // Back to the committed baseline and a clean tree for the steps that follow.
    await gitIn('checkout', '-q', '--', 'baselines');
    // gtp baseline also appended the accepted run to history/: not part of this project's history.
    await rm(join(project, 'history'), { recursive: true, force: true });
    await rm(join(project, `baselines/${(await readRunRecord(join(project, 'results/k.json'))).profile.id}.json.prev`), { force: true });
    expect(await gitIn('status', '--porcelain')).toBe('');
  });

  it('finds that commit with gtp bisect (exit 0, the culprit named)', async () => {
    // At its minimum: the one commit between good (the docs commit) and bad (the regression), so
    // one probe, the bad end, worse. The search over longer ranges, probe by probe and look by
    // look, is proven on per-process values in src/runner/bisect.test.ts; here, the wiring.
    const found = await timed('bisect, 1 commit', [
      'bisect',
      '--good',
      'HEAD~1',
      '--bad',
      'HEAD',
      '--processes',
      K,
      // Times judged too (issue 44): they may be noisy here; only what regressed at the bad end decides.
      '--json',
      'results/bisect.json',
    ]);
    expect(found.code, found.output).toBe(0);
    expect(found.output).toMatch(/Culprit: [0-9a-f]{12} device-uint8: checksum each batch/);
    const regression = await gitIn('rev-parse', 'HEAD');
    const result = JSON.parse(await readFile(join(project, 'results/bisect.json'), 'utf8')) as BisectResult;
    expect(result.culprit?.commit).toBe(regression);
    expect(result.probes.map((p) => [p.commit, p.outcome])).toEqual([[regression, 'worse']]);
    expect(result.follows[0]).toBe('rgb-batches.speedup');
  });

  it("measures each metric's spread with gtp calibrate and writes tolerances only when asked", async () => {
    const calibrated = await timed('calibrate, 3 + 3', ['calibrate', '--processes', '3', '--write-tolerances']);
    expect(calibrated.code, calibrated.output).toBe(0);
    expect(calibrated.output).toMatch(/rgb-batches\.speedup +│ ratio/);
    expect(calibrated.output).toMatch(/between-process SD/);
    const tolerances = JSON.parse(await readFile(join(project, 'baselines/tolerances.json'), 'utf8')) as Record<string, number>;
    expect(tolerances['rgb-batches.speedup']).toBeGreaterThan(0);
  });

  it('never named a command that does not exist in the project (an npm script of the harness)', () => {
    expect(shown.length).toBeGreaterThan(10);
    for (const output of shown) expect(output).not.toMatch(/npm run|perf:(ab|bisect|calibrate|compare|baseline|history)\b/);
  });
});

/** MB as the README states sizes (1e6 bytes). */
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

/** The bytes of a folder's files, not following links, leaving out nested node_modules (counted as packages of their own). */
async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += await folderBytes(path);
    else if (entry.isFile()) total += (await lstat(path)).size;
  }
  return total;
}

/**
 * The installed tree by share, from npm's lockfile of the project: every package, @tensorflow's,
 * and those the harness brings (its dependencies, recursively, not its peers: tfjs and vitest are
 * the project's), resolved as Node resolves them (nested first, then hoisted).
 */
async function installedShares(dir: string): Promise<{ total: number; tfjs: number; harness: number; largest: Array<[string, number]>; nestedTfjs: string[] }> {
  const lock = JSON.parse(await readFile(join(dir, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string>; link?: boolean }>;
  };
  const paths = Object.keys(lock.packages).filter((p) => p.startsWith('node_modules/'));
  const bytes = new Map<string, number>();
  for (const p of paths) bytes.set(p, lock.packages[p]!.link ? 0 : await folderBytes(join(dir, p)).catch(() => 0));
  const resolveFrom = (from: string, name: string): string | null => {
    for (let base = from; ; base = base.slice(0, Math.max(0, base.lastIndexOf('/node_modules/')))) {
      const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
      if (lock.packages[candidate]) return candidate;
      if (!base) return null;
    }
  };
  const harness = new Set<string>();
  const visit = (path: string) => {
    if (harness.has(path)) return;
    harness.add(path);
    const entry = lock.packages[path]!;
    for (const name of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) {
      const found = resolveFrom(path, name);
      if (found) visit(found);
    }
  };
  visit('node_modules/gpu-transfer-perf');
  const isTfjs = (p: string) => /(^|\/)node_modules\/@tensorflow\//.test(p);
  const sum = (ps: Iterable<string>) => [...ps].reduce((a, p) => a + (bytes.get(p) ?? 0), 0);
  const own = [...harness].filter((p) => !isTfjs(p));
  return {
    total: sum(paths),
    tfjs: sum(paths.filter(isTfjs)),
    harness: sum(own),
    largest: own
      .map((p): [string, number] => [p.replace(/^.*node_modules\//, ''), bytes.get(p) ?? 0])
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4),
    nestedTfjs: paths.filter((p) => /node_modules\/gpu-transfer-perf\/node_modules\/(@tensorflow\/tfjs-core|vitest)$/.test(p)),
  };
}

/** A GitHub Actions job as the recipe writes it: plain `run:` shell steps and `uses:` actions. */
interface WorkflowJob {
  readonly env?: Record<string, string>;
  readonly strategy?: { readonly matrix?: { readonly include?: ReadonlyArray<Record<string, unknown>> } };
  readonly steps: ReadonlyArray<{
    readonly name?: string;
    readonly run?: string;
    readonly uses?: string;
    readonly if?: string;
    readonly with?: Record<string, unknown>;
  }>;
}

/** What the runner's expressions see for one job (one matrix leg), as far as the recipes use them. */
interface ExpressionContext {
  readonly matrix: Record<string, unknown>;
  readonly secrets: Record<string, string>;
  readonly github: Record<string, string>;
  readonly env: Record<string, string | undefined>;
}

/**
 * The `${{ }}` expressions and `if:` conditions the recipes use, evaluated as the runner would:
 * `always()`, `!cancelled()`, `matrix.X`, `secrets.X`, `env.X != ''`, `github.event_name == '...'`
 * and `&&` of those. Any other
 * is a test failure (the recipe uses what the test cannot evaluate).
 */
function evaluate(expression: string, context: ExpressionContext): unknown {
  // An if: may wrap its condition in ${{ }}; a conjunction is each part evaluated.
  const e = expression
    .trim()
    .replace(/^\$\{\{([\s\S]*)\}\}$/, '$1')
    .trim();
  if (e.includes(' && ')) return e.split(' && ').every((part) => evaluate(part, context));
  // The job is not cancelled here (a cancelled run stops before any step).
  if (e === 'always()' || e === '!cancelled()') return true;
  const path = /^(matrix|secrets)\.([\w-]+)$/.exec(e);
  if (path) return context[path[1] as 'matrix' | 'secrets'][path[2]!] ?? '';
  const envEmpty = /^env\.(\w+) != ''$/.exec(e);
  if (envEmpty) return (context.env[envEmpty[1]!] ?? '') !== '';
  const event = /^github\.event_name == '(\w+)'$/.exec(e);
  if (event) return context.github.GITHUB_EVENT_NAME === event[1];
  throw new Error(`an expression the test cannot evaluate: \${{ ${e} }}`);
}

/** A value with its `${{ }}` expressions replaced by what they evaluate to. */
const substitute = (text: string, context: ExpressionContext) => text.replace(/\$\{\{(.+?)\}\}/g, (_, e: string) => String(evaluate(e, context)));

/**
 * The `uses:` actions the recipe may name, each with what the test provides in its place:
 * checkout (the copy is a git repository with the base branch fetched as origin/main),
 * setup-node (this machine's Node 20, npm's cache, filled as the action's cache restores it),
 * upload-artifact (nothing to upload to: the files it names are checked to exist).
 */
const PROVIDED_ACTIONS = ['actions/checkout@v4', 'actions/setup-node@v4', 'actions/upload-artifact@v4'];

/**
 * The fleet recipe's actions (docs/ci.md), beside those: bencherdev/bencher installs the `bencher`
 * CLI, which needs a Bencher server this machine cannot reach, so a `bencher` on the test's PATH
 * records its command line instead (checked below); mikepenz/action-junit-report reads the JUnit
 * files its report_paths name, which the test reads back itself.
 */
const FLEET_ACTIONS = [...PROVIDED_ACTIONS, 'bencherdev/bencher@main', 'mikepenz/action-junit-report@v5'];

/**
 * The recipes' commands that reach a network on a runner, each with how the test runs it without
 * one: apt-get by the shim below (setup:system installed the packages once), `npm ci` from npm's
 * cache (npm_config_offline), `npx gtp` from the installed bin, `bencher` by its recording shim,
 * `git push` to the copy's local origin. A recipe line that reaches a network some other way
 * fails the check of the recipes' text.
 */
const NETWORK_STEPS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(sudo )?apt-get (update|install)\b/, 'apt-get: the shim checks that the named packages are installed'],
  [/^npm ci\b/, "npm ci: from npm's cache, offline"],
  [/\bnpx gtp\b/, 'npx: the installed bin, offline'],
  [/^bencher run\b/, 'bencher: its command line recorded'],
  [/\bgit push\b/, "git push: to the copy's local origin"],
];
/** A line of a recipe's run: step that would reach a network (a registry, an archive, a server). */
const REACHES_NETWORK = /\b(apt-get|apt|npm (ci|install|i|update)|npx|curl|wget|pip3?|git (push|fetch|pull|clone)|bencher)\b/;

/**
 * apt-get as the recipes call it, with no network: `update` does nothing (`npm run setup:system`
 * read the package lists once), `install` succeeds only when every named package is installed
 * already (dpkg), and each call's arguments are appended to `log` to be checked.
 */
function aptGetWithoutNetwork(log: string): string {
  return `#!/bin/sh
printf '%s\\n' "$*" >> '${log}'
case "$1" in
  update) exit 0 ;;
  install) shift
    for p in "$@"; do
      case "$p" in -*) continue ;; esac
      dpkg-query -W -f='\${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || { echo "apt-get (pack test): $p is not installed; install it once with npm run setup:system" >&2; exit 100; }
    done
    exit 0 ;;
esac
echo "apt-get (pack test): $* is not provided here" >&2
exit 100
`;
}

/** The fleet recipe: the one YAML block of docs/ci.md's "A fleet" section. */
async function fleetWorkflow(): Promise<{ jobs: Record<string, WorkflowJob> }> {
  const doc = await readFile(join(ROOT, 'docs/ci.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## A fleet'));
  const block = /```yaml\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error("docs/ci.md: no yaml block under '## A fleet'");
  return parseYaml(block[1]!) as { jobs: Record<string, WorkflowJob> };
}

describe("the CI recipe's run: steps (examples/own-pipeline/.github/workflows/perf.yml), run in order in the example copy, on a runner whose CPU changed", () => {
  let jobs: Record<string, WorkflowJob>;
  let bin: string;
  /**
   * Every job runs as if the runner's CPU were a model no baseline of the copy records
   * (test/support/other-cpu.ts: a crafted /proc/cpuinfo in a mount namespace), as on a hosted
   * runner that changed CPU under its label: the recipe must pass there as it is.
   */
  let other: Awaited<ReturnType<typeof asOtherCpu>>;
  /** The lockfile the recipe's `npm ci` installed from (a job's; null before the first). */
  let recipeInstalledFrom: string | null = null;

  beforeAll(async () => {
    jobs = (parseYaml(await readFile(join(project, '.github/workflows/perf.yml'), 'utf8')) as { jobs: Record<string, WorkflowJob> }).jobs;
    // The runner's sudo: this machine runs as root and has none, so it runs the command as is.
    bin = await mkdtemp(join(tmpdir(), 'gtp-ci-bin-'));
    other = await asOtherCpu(bin, 'cpuinfo', OTHER_CPU_MODEL, 2);
    await writeFile(join(bin, 'sudo'), '#!/bin/sh\nexec "$@"\n', { mode: 0o755 });
    await writeFile(join(bin, 'apt-get'), aptGetWithoutNetwork(join(bin, 'apt-get-calls')), { mode: 0o755 });
    // The fleet recipe's Bencher upload: no server here, so its command line is recorded, one argument a line.
    await writeFile(join(bin, 'bencher'), `#!/bin/sh\nprintf '%s\\n' "$@" > '${join(bin, 'bencher-args')}'\n`, { mode: 0o755 });
    // checkout with history: the project's branch is main, and a remote holds it (origin/main).
    await gitIn('branch', '-M', 'main');
    await sh('git', ['clone', '-q', '--bare', project, join(work, 'origin.git')], { env });
    await gitIn('remote', 'add', 'origin', join(work, 'origin.git'));
    await gitIn('fetch', '-q', 'origin');
    // checkout leaves the branch tracking its remote, which the job's plain `git push` relies on.
    await gitIn('branch', '-q', '--set-upstream-to=origin/main', 'main');
  }, 60_000);

  afterAll(() => rm(bin, { recursive: true, force: true }));

  /**
   * Runs one job's steps in order with bash -e, as the runner does: its `if:` conditions and the
   * expressions in its env evaluated for `leg` (the matrix values and secrets given), what a step
   * appends to $GITHUB_ENV seen by the steps after it. Returns the `uses:` steps it reached.
   */
  async function runJob(
    name: string,
    github: Record<string, string>,
    job: WorkflowJob = jobs[name]!,
    leg: Pick<ExpressionContext, 'matrix' | 'secrets'> = { matrix: {}, secrets: {} },
    actions: readonly string[] = PROVIDED_ACTIONS,
  ): Promise<WorkflowJob['steps']> {
    // Where this machine cannot pose as another CPU (no unshare or not root), on its own CPU.
    const wrap = other.wrap ?? [];
    const githubEnv = join(bin, `github_env_${name}`);
    await writeFile(githubEnv, '');
    const context = { ...leg, github, env: {} as Record<string, string | undefined> };
    const jobEnv = Object.fromEntries(Object.entries(job.env ?? {}).map(([k, v]) => [k, substitute(String(v), context)]));
    const reached: Array<WorkflowJob['steps'][number]> = [];
    for (const step of job.steps) {
      const added = Object.fromEntries(
        (await readFile(githubEnv, 'utf8'))
          .split('\n')
          .filter((l) => l.includes('='))
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
      const seen = { ...context, env: { ...jobEnv, ...added } };
      if (step.if !== undefined && !evaluate(step.if, seen)) continue;
      if (step.uses) {
        expect(actions, `${name}: a uses: step the test does not provide`).toContain(step.uses);
        reached.push(step);
        continue;
      }
      const script = step.run!;
      // An expression the runner would evaluate cannot be run here as written.
      expect(script, `${name}: ${step.name ?? script}`).not.toMatch(/\$\{\{/);
      // `npm ci` from the cache once (npm_config_offline); again on the same lockfile it would
      // install the same tree from the same cache, so a later job keeps what the first installed.
      const lock = await readFile(join(project, 'package-lock.json'), 'utf8');
      if (/^npm ci\b/.test(script.trim()) && recipeInstalledFrom === lock) continue;
      const stepEnv = {
        ...env,
        ...jobEnv,
        ...added,
        ...github,
        GITHUB_ENV: githubEnv,
        PATH: `${bin}:${env.PATH}`,
        CI: 'true',
      };
      const [file, ...args] = [...wrap, 'bash', '-e', '-c', script];
      const outcome = await sh(file!, args, { cwd: project, env: stepEnv, maxBuffer: 64 * 1024 * 1024 }).then(
        (r) => ({ code: 0, output: r.stdout + r.stderr }),
        (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: e.code ?? -1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` }),
      );
      shown.push(outcome.output);
      expect(outcome.code, `${name}: ${step.name ?? script}\n${outcome.output.slice(-3000)}`).toBe(0);
      if (/^npm ci\b/.test(script.trim())) recipeInstalledFrom = lock;
    }
    return reached;
  }

  it('reaches a network only in steps the test runs without one (the text of both recipes)', async () => {
    const fleet = (await fleetWorkflow()).jobs;
    const lines = [...Object.values(jobs), ...Object.values(fleet)]
      .flatMap((job) => job.steps)
      .flatMap((step) => (step.run ?? '').split('\n'))
      .map((line) => line.trim())
      .filter((line) => REACHES_NETWORK.test(line));
    expect(lines.filter((line) => !NETWORK_STEPS.some(([pattern]) => pattern.test(line)))).toEqual([]);
    // What the jobs below install: the Vulkan driver and the project's lockfile.
    expect(lines).toEqual(expect.arrayContaining(['sudo apt-get install -y -qq --no-install-recommends mesa-vulkan-drivers', 'npm ci --no-audit --no-fund']));
  });

  it('the pull-request job: the system package, npm ci and gtp ab against the base branch pass an unchanged head (exit 0), verdicts written', async () => {
    const summary = join(work, 'step_summary_ab');
    await writeFile(summary, '');
    await runJob('ab', { GITHUB_EVENT_NAME: 'pull_request', GITHUB_BASE_REF: 'main', GITHUB_STEP_SUMMARY: summary });
    // The driver step ran through apt-get (the shim: installed already, nothing fetched), and npm ci ran.
    expect((await readFile(join(bin, 'apt-get-calls'), 'utf8')).split('\n')).toEqual(
      expect.arrayContaining(['update -qq', 'install -y -qq --no-install-recommends mesa-vulkan-drivers']),
    );
    expect(recipeInstalledFrom).not.toBeNull();
    // An unchanged commit (the A/A of the recipe): exit 0, nothing regressed, and both arms ran
    // the one installed harness (no note of differing versions).
    const ab = JSON.parse(await readFile(join(project, 'results/ab.json'), 'utf8')) as AbResult;
    expect(ab).toMatchObject({ exitCode: 0 });
    expect(ab.verdicts.map((v) => v.id)).toContain('rgb-batches.speedup');
    expect(ab.verdicts.filter((v) => v.verdict === 'regressed')).toEqual([]);
    expect(ab.notes ?? []).not.toEqual(expect.arrayContaining([expect.stringMatching(/different harness versions/)]));
    expect(await readFile(join(project, 'results/ab.md'), 'utf8')).toMatch(/rgb-batches\.speedup/);
    expect(await readFile(summary, 'utf8')).toMatch(/rgb-batches\.speedup/);
  }, 600_000);

  it('the main-branch job: 8 processes into history/, committed and pushed to origin', async () => {
    const head = await gitIn('rev-parse', 'HEAD');
    await runJob('history', { GITHUB_EVENT_NAME: 'push', GITHUB_SHA: head });
    const pushed = await sh('git', ['log', '-1', '--format=%s', 'main'], { cwd: join(work, 'origin.git'), env });
    expect(pushed.stdout.trim()).toBe(`perf history: ${head.slice(0, 12)} [skip ci]`);
    expect((await gitIn('ls-files', 'history')).split('\n').filter(Boolean)).toHaveLength(1);
    // Measured as the other CPU (where this machine can pose as one; else as itself), and passed.
    expect((await readRunRecord(join(project, 'results/main.json'))).profile.id).toBe(other.wrap ? OTHER_CPU_LAVAPIPE_ID : record.profile.id);
  }, 600_000);

  it("the fleet recipe's hosted-x64 leg (docs/ci.md) as a pull request on a runner whose CPU changed: the same device's baseline from another CPU, the A/B, BMF to the profile's testbed, JUnit for the pane", async (context) => {
    if (other.unavailable !== null) context.skip(other.unavailable);
    const fleet = (await fleetWorkflow()).jobs.perf!;
    const legs = fleet.strategy?.matrix?.include ?? [];
    // Hosted CPU runners with lavapipe and a self-hosted GPU label, one job each.
    expect(legs.filter((l) => l.lavapipe === true).length).toBeGreaterThanOrEqual(1);
    expect(legs.some((l) => Array.isArray(l.runner) && l.runner.includes('self-hosted') && l.lavapipe === false)).toBe(true);
    const leg = legs.find((l) => l.name === 'hosted-x64')!;
    await rm(join(project, 'results'), { recursive: true, force: true });
    await rm(join(bin, 'bencher-args'), { force: true });
    const summary = join(work, 'step_summary_fleet');
    await writeFile(summary, '');
    const github = {
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_BASE_REF: 'main',
      GITHUB_HEAD_REF: 'topic',
      GITHUB_REF_NAME: '1/merge',
      GITHUB_STEP_SUMMARY: summary,
    };
    const reached = await runJob('fleet', github, fleet, { matrix: leg, secrets: { BENCHER_API_TOKEN: 'not-a-token' } }, FLEET_ACTIONS);
    const run = await readRunRecord(join(project, 'results/run.json'));
    expect(run.profile.id).toBe(OTHER_CPU_LAVAPIPE_ID);
    // PERF_REQUIRE_BASELINE=1 held (the job passed): the same device's baseline from another CPU
    // judged it, said in the JUnit pane; the example has no calibration or second CPU's baseline
    // to measure an allowance, so its exact metrics gate and its ratios are shown, not gated.
    const perfJunit = await readFile(join(project, 'results/perf.junit.xml'), 'utf8');
    expect(perfJunit).toMatch(/judged against webgpu-lavapipe-[\w-]+-2c-x64, recorded on another CPU/);
    expect(perfJunit).toMatch(/rgb-batches\.speedup[\s\S]*recorded on another CPU: not gated, no allowance between CPUs measured for this device/);
    // Bencher: the run's BMF into the testbed of its profile.
    const args = (await readFile(join(bin, 'bencher-args'), 'utf8')).trim().split('\n');
    const flagValue = (flag: string) => args[args.indexOf(flag) + 1];
    expect(args[0]).toBe('run');
    expect([flagValue('--testbed'), flagValue('--adapter'), flagValue('--file'), flagValue('--branch')]).toEqual([
      run.profile.id,
      'json',
      'results/run.bmf.json',
      'topic',
    ]);
    const bmf = JSON.parse(await readFile(join(project, 'results/run.bmf.json'), 'utf8')) as Record<string, unknown>;
    expect(bmfFindings(bmf)).toEqual([]);
    expect(Object.keys(bmf)).toContain('rgb-batches.speedup');
    // JUnit: the files the report action's report_paths name, one per gate, valid and read back.
    const junit = reached.find((s) => s.uses === 'mikepenz/action-junit-report@v5')!;
    expect(junit.with?.report_paths).toBe('results/*.junit.xml');
    const files = (await readdir(join(project, 'results'))).filter((f) => f.endsWith('.junit.xml')).sort();
    expect(files).toEqual(['ab.junit.xml', 'perf.junit.xml']);
    for (const file of files) {
      expect(await junitXsdFindings(join(project, 'results', file))).toMatch(/validates$/);
      const { cases } = await readJunitAsTestReporter(await readFile(join(project, 'results', file), 'utf8'));
      // A case per metric: named by it in the perf run's suite, 'ab <metric>' in the A/B's.
      expect(
        cases.map((c) => c.name.replace(/^ab /, '')),
        file,
      ).toContain('rgb-batches.speedup');
    }
    expect(perfJunit).toContain(run.profile.id);
  }, 600_000);
});
