// The package as someone who is not this repository gets it: `npm pack` of the harness (its
// prepack builds dist/), installed into a temp copy of examples/own-pipeline, whose own perf
// file runs with `npx gtp perf` and is judged with `npx gtp compare` against the example's
// committed baseline. The copy then becomes a git repository of its own, where `npx gtp ab`
// compares its commits, each measured by its own installed harness, `npx gtp bisect` finds the
// commit that made a strategy slower and `npx gtp calibrate` measures its spreads. Real
// processes, real git, real device, nothing mocked.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDoctorReport } from '../doctor/files.js';
import { smallestDecidingGroupSize } from '../measure/permutation.js';
import { readBaseline } from '../results/baseline.js';
import { DEFAULT_PROCESS_ALPHA } from '../results/process-verdict.js';
import type { RunRecord } from '../results/schema.js';
import { readRunRecord } from '../results/storage.js';

const ROOT = resolve(import.meta.dirname, '../..');
const EXAMPLE = join(ROOT, 'examples/own-pipeline');
const COMMITTED_BASELINE = join(EXAMPLE, 'baselines/webgpu-lavapipe-x64.json');
const sh = promisify(execFile);

/** The example's batch: [8, 96, 96, 3] uint8 values. */
const ELEMENTS = 8 * 96 * 96 * 3;

// A clean environment: none of this vitest worker's VITEST_* variables (the child starts its own
// vitest), npm's cache found through HOME, the backend choice of CI kept. PERF_REQUIRE_BASELINE
// is left out: which baseline judges the run is decided below, by profile.
const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
for (const name of ['PERF_BACKEND', 'PERF_REQUIRE_BACKEND', 'npm_config_cache', 'XDG_RUNTIME_DIR']) {
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

/** Runs the installed bin (`npx --no`: never fetch it) in the example copy; resolves with its exit code. */
async function gtp(args: readonly string[]): Promise<Outcome> {
  const outcome = await (async () => {
    try {
      const { stdout, stderr } = await sh('npx', ['--no', 'gtp', ...args], { cwd: project, env, maxBuffer: 16 * 1024 * 1024 });
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
 * npm's cache holds the tarballs of every locked package but no registry metadata, so an
 * offline install must resolve from a lockfile: the harness's own, whose tree already holds
 * every runtime dependency of the tarball at its pinned version (npm prunes the dev-only rest).
 */
async function writeOfflineLock(dir: string): Promise<void> {
  const lock = JSON.parse(await readFile(join(ROOT, 'package-lock.json'), 'utf8')) as {
    name: string;
    version: string;
    packages: Record<string, unknown>;
  };
  const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { name: string; version: string; dependencies: Record<string, string> };
  const root = { name: manifest.name, version: manifest.version, dependencies: manifest.dependencies };
  await writeFile(
    join(dir, 'package-lock.json'),
    JSON.stringify({ ...lock, name: manifest.name, version: manifest.version, packages: { ...lock.packages, '': root } }),
  );
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'gtp-pack-test-'));
  const packed = await sh('npm', ['pack', '--pack-destination', work, '--json'], { cwd: ROOT, env, maxBuffer: 16 * 1024 * 1024 });
  const tarball = join(work, (JSON.parse(packed.stdout) as Array<{ filename: string }>)[0]!.filename);
  project = join(work, 'own-pipeline');
  await cp(EXAMPLE, project, { recursive: true, filter: (path) => !/^(node_modules|results)(\/|$)/.test(relative(EXAMPLE, path)) });
  await writeOfflineLock(project);
  await sh('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: project, env, maxBuffer: 16 * 1024 * 1024 });
  perf = await gtp(['perf', '--out', 'results/run.json']);
  record = await readRunRecord(join(project, 'results/run.json'));
}, 600_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the packed harness in a project of its own', () => {
  it("runs that project's perf files, not the built-in scenarios, into its results/", () => {
    expect(perf.code, perf.output).toBe(0);
    expect(record.errors).toEqual([]);
    expect(record.selection).toBeNull();
    expect(new Set(record.metrics.map((m) => m.scenario))).toEqual(new Set(['rgb-batches']));
    expect(record.metrics.map((m) => m.id).sort()).toEqual(
      [
        'memory.leaked-tensors.rgb-batches',
        'rgb-batches.max-abs-diff',
        'rgb-batches.speedup',
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

  it('passes against its baseline (exit 0) and fails (exit 1) against one whose bytes differ', async () => {
    const committed = await readBaseline(COMMITTED_BASELINE);
    // On the profile of the committed baseline, that baseline judges (and gtp perf already did).
    // Elsewhere this run becomes the copy's baseline first, so both verdicts are still exercised.
    let baselinePath = 'baselines/webgpu-lavapipe-x64.json';
    if (record.profile.id === committed.profile.id) {
      expect(perf.output).toMatch(/Verdicts: .*exit 0/);
    } else {
      const accepted = await gtp(['baseline', 'results/run.json']);
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
    const asked = await gtp(['perf', '--shape', '2x16x16x3', '--out', 'results/shape.json']);
    expect(asked.code, asked.output).toBe(0);
    const record = await readRunRecord(join(project, 'results/shape.json'));
    const bytes = (id: string) => record.metrics.find((m) => m.id === id)?.value;
    expect(bytes('shape.2x16x16x3.upload-bytes.cpu-normalize')).toBe(4 * 2 * 16 * 16 * 3);
    expect(bytes('shape.2x16x16x3.upload-bytes.device-normalize')).toBe(2 * 16 * 16 * 3);
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

  it('names the commands that work here in --help (npx gtp ab), no npm script of the harness', async () => {
    // `gtp --help` would be npx's own help: npx reads a leading --help itself.
    const help = await gtp(['perf', '--help']);
    expect(help.code, help.output).toBe(0);
    expect(help.output).toMatch(/^ {2}npx gtp ab --base REF +A\/B/m);
    expect(help.output).not.toMatch(/npm run|perf:ab/);
  });

  it('refuses an unknown flag with exit 2', async () => {
    const bad = await gtp(['perf', '--no-such-flag']);
    expect(bad.code).toBe(2);
    expect(bad.output).toMatch(/no-such-flag/);
  });
});

/**
 * The fewest processes per arm that can decide at the first look (an exact permutation test of
 * K + K values reaching alpha): a ~2x step is decided there, and CI time stays small.
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

// The regression: device-uint8 does one real host pass (a checksum) over the batch before sending
// it, inside the timed region: ~0.4 ms on top of ~0.5 ms on lavapipe, so that strategy is about
// 2x slower and rgb-batches.speedup (host-float32 over device-uint8) about halves.
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
      for (let i = 0; i < pixels.length; i++) sum = (sum * 31 + pixels[i]!) | 0;
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
    const processes = outcome.output.match(/^\[gtp \w+\] (look \S+, )?pair /gm)?.length ?? 0;
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

  it(`passes an unchanged commit (gtp ab --base HEAD, ${K} processes a side): exit 0`, async () => {
    const same = await timed('ab A/A', ['ab', '--base', 'HEAD', '--processes', K, '--ratios-only']);
    expect(same.code, same.output).toBe(0);
    expect(same.output).toMatch(/rgb-batches\.speedup/);
    expect(same.output).not.toMatch(/regressed │/);
    // Both arms ran the one installed harness: no note of differing versions.
    expect(same.output).not.toMatch(/different harness versions/);
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

  it('calls a commit that makes one strategy ~2x slower a regression (gtp ab --base HEAD~1): exit 1, naming the metric', async () => {
    await docsCommit('how to run it in CI');
    const file = join(project, 'perf/rgb-batches.perf.ts');
    const text = await readFile(file, 'utf8');
    expect(text).toContain(FAST);
    await writeFile(file, text.replace(FAST, SLOW));
    await commitAll('device-uint8: checksum each batch on the host before sending it');
    const slower = await timed('ab 2x step', ['ab', '--base', 'HEAD~1', '--processes', K, '--ratios-only']);
    expect(slower.code, slower.output).toBe(1);
    expect(slower.output).toMatch(/rgb-batches\.speedup .*regressed/);
  });

  it('finds that commit with gtp bisect (exit 0, the culprit named)', async () => {
    await docsCommit('a note after the regression');
    // good: the perf file's commit; after it: docs (same), the regression (worse), docs (worse).
    const found = await timed('bisect, 3 commits', ['bisect', '--good', 'HEAD~3', '--bad', 'HEAD', '--processes', K, '--ratios-only']);
    expect(found.code, found.output).toBe(0);
    expect(found.output).toMatch(/Culprit: [0-9a-f]{12} device-uint8: checksum each batch/);
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
