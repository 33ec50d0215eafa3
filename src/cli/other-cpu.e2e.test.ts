// The real CLI on this machine as if its CPU were another model (issue 36 item 1): a crafted
// /proc/cpuinfo bound over the real one in a private mount namespace (test/support/other-cpu.ts),
// which is what Node's os.cpus() reads, and so what the profile id is made of
// (backend/hardware-profile.ts hostCpuModel). The committed baseline was recorded on an AMD EPYC.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, withEnv } from '../../test/support/cli.js';
import { asOtherCpu, OTHER_CPU_LAVAPIPE_ID, OTHER_CPU_MODEL as XEON, type OtherCpu } from '../../test/support/other-cpu.js';
import { tempFolder } from '../../test/support/temp-folder.js';

const EPYC_ID = 'webgpu-lavapipe-amd-epyc-2c-x64';

const temp = tempFolder('gtp-other-cpu-');
/**
 * Runs a command as the Xeon, on 2 cores, the committed baseline's core count, so that only the
 * CPU model differs; where this machine cannot, `unavailable` says why (no unshare, not root).
 */
let xeon: OtherCpu;

beforeAll(async () => {
  xeon = await asOtherCpu(temp.path, 'cpuinfo', XEON, 2);
});

describe('a runner whose CPU differs from the committed baseline', () => {
  it('reads the crafted CPU model through os.cpus(), as the profile does', async (context) => {
    if (xeon.unavailable !== null) context.skip(xeon.unavailable);
    const [file, ...args] = [
      ...(xeon.wrap ?? []),
      process.execPath,
      '-e',
      'const os = require("node:os"); console.log(os.cpus()[0].model + "|" + os.availableParallelism())',
    ];
    const { stdout } = await promisify(execFile)(file!, args);
    const [model, cores] = stdout.trim().split('|');
    expect(model).toBe(XEON);
    expect(Number(cores)).toBe(2);
  });

  it(`judges gtp perf against ${EPYC_ID} with the measured allowance, in every report, and PERF_REQUIRE_BASELINE=1 is satisfied`, async (context) => {
    if (xeon.unavailable !== null) context.skip(xeon.unavailable);
    const out = temp.at('run.json');
    const [json, markdown] = [temp.at('verdicts.json'), temp.at('summary.md')];
    const env = withEnv({ PERF_REQUIRE_BACKEND: 'webgpu', PERF_REQUIRE_BASELINE: '1' });
    const args = ['perf', '--scenario', 'memory', '--scenario', 'speedup', '--out', out, '--json', json, '--markdown', markdown];
    const { code, stdout, stderr } = await cli(args, undefined, { env, wrap: xeon.wrap ?? [], timeoutMs: 120_000 });
    const run = JSON.parse(await readFile(out, 'utf8')) as { profile: { id: string; cpu: { model: string } } };
    expect(run.profile.cpu.model).toBe(XEON);
    expect(run.profile.id).toBe(OTHER_CPU_LAVAPIPE_ID);
    const said =
      /judged against webgpu-lavapipe-amd-epyc-2c-x64, recorded on another CPU \(AMD EPYC; this run Intel\(R\) Xeon\(R\) Platinum 8370C CPU @ 2\.80GHz\): allowance by ratio, ±\d+\.\d% to ±\d+\.\d%/;
    expect(stdout, stderr).toMatch(/^Compared with baseline webgpu-lavapipe-amd-epyc-2c-x64 \(quick scale\)/m);
    expect(stdout).toMatch(said);
    expect(await readFile(markdown, 'utf8')).toMatch(said);
    const verdicts = JSON.parse(await readFile(json, 'utf8')) as {
      baselineProfile: string;
      otherHost: { allowance: number; byMetric: Record<string, number>; source: string };
      verdicts: Array<{ id: string; kind: string; reason: string }>;
    };
    expect(verdicts.baselineProfile).toBe(EPYC_ID);
    // Each ratio its own shift between the committed AMD EPYC and Intel Xeon baselines of one
    // commit, never under the calibration pools' 7.5% (host-allowance.ts).
    expect(verdicts.otherHost.source).toMatch(/^baselines of one commit on two CPUs .*; at least ±7\.5%, from .*calibration pools/);
    expect(Math.min(...Object.values(verdicts.otherHost.byMetric))).toBeGreaterThanOrEqual(0.075 - 5e-4);
    const speedup = verdicts.verdicts.find((v) => v.id === 'mnist-transfer.speedup')!;
    expect(speedup.reason).toContain(`allowance ±${(100 * verdicts.otherHost.byMetric['mnist-transfer.speedup']!).toFixed(1)}% (in the tolerance)`);
    // Ratios and exact metrics only, each saying against what; no absolute time crosses CPUs.
    expect(verdicts.verdicts.some((v) => v.kind === 'ratio')).toBe(true);
    for (const v of verdicts.verdicts) {
      expect(['ratio', 'exact'], v.id).toContain(v.kind);
      expect(v.reason, v.id).toMatch(/judged against webgpu-lavapipe-amd-epyc-2c-x64, recorded on another CPU/);
    }
    // One process of the speedup is judged against the baseline's 8 with the allowance; an
    // unchanged run fails at most 1% of the time, so the exit is what the verdicts say.
    expect(code, stdout).toBe(stdout.includes('exit 0.') ? 0 : 1);
    expect(stdout).toMatch(/^Verdicts: .*; exit [01]\.$/m);
  });

  it('still exits 3 under PERF_REQUIRE_BASELINE=1 for a device with no baseline at all (wasm, on the Xeon where this machine can pose as one)', async () => {
    const env = withEnv({ PERF_REQUIRE_BASELINE: '1' });
    const args = ['perf', '--backend', 'wasm', '--scenario', 'memory', '--out', temp.at('wasm.json')];
    const { code, stdout, stderr } = await cli(args, undefined, { env, wrap: xeon.wrap ?? [], timeoutMs: 120_000 });
    // wasm computes on one thread: its id names the CPU model alone, and no committed baseline is a wasm one.
    expect(stdout, stderr).toMatch(new RegExp(`^No baseline for profile wasm-${xeon.wrap ? 'intel-xeon-platinum' : '\\S+'}-x64 \\(quick scale\\)`, 'm'));
    expect(code, stdout).toBe(3);
  });
});
