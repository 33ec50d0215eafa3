/**
 * Issue 43's cost goal: a browser MNIST quick run (one process) takes at most twice the wall time
 * of the Node one on the same machine. Runs the built CLI (`npm run build` first) for the MNIST
 * scenarios both hosts have (speedup, memory), alternating Node, Chromium WebGPU and Chromium
 * WebGL run by run so that drift lands on all three, and prints each one's median wall time
 * (whole commands, start to exit: what a user waits for) and its ratio to Node's.
 *
 *   npx tsx scripts/browser-wall.ts [--runs 3]
 *
 * It measures: run it on a quiet machine. Its records go to a temp folder, never to results/.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { median } from '../src/measure/statistics.js';

const run = promisify(execFile);
const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new RangeError(`--runs ${values.runs}: a whole number from 1`);

const SCENARIOS = ['--scenario', 'speedup', '--scenario', 'memory'];
const HOSTS = {
  node: [] as string[],
  'chromium webgpu': ['--browser', 'chromium', '--backend', 'webgpu'],
  'chromium webgl': ['--browser', 'chromium', '--backend', 'webgl'],
} as const;
type Host = keyof typeof HOSTS;

const dir = await mkdtemp(join(tmpdir(), 'gtp-browser-wall-'));
const noBaselines = join(dir, 'no-baselines');
await mkdir(noBaselines);
const walls: Record<Host, number[]> = { node: [], 'chromium webgpu': [], 'chromium webgl': [] };
try {
  for (let i = 0; i < runs; i++) {
    for (const host of Object.keys(HOSTS) as Host[]) {
      const started = performance.now();
      // Not judged against a baseline here (an empty --baselines folder): the wall time is the figure, whatever the verdict.
      await run('node', ['dist/cli/main.js', 'perf', ...HOSTS[host], ...SCENARIOS, '--baselines', noBaselines, '--out', join(dir, `${i}.json`)], {
        env: { ...process.env, PERF_REQUIRE_BASELINE: '' },
        maxBuffer: 16 * 1024 * 1024,
      }).catch((error: { code?: number }) => {
        if (error.code !== 3) throw error;
      });
      walls[host].push((performance.now() - started) / 1000);
      console.log(`run ${i + 1}/${runs} ${host}: ${walls[host].at(-1)!.toFixed(1)} s`);
    }
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
const node = median(walls.node);
console.log(`\nwall time of one MNIST quick run (speedup + memory, one process), median of ${runs}; smaller is better:`);
for (const host of Object.keys(HOSTS) as Host[]) {
  const m = median(walls[host]);
  console.log(`  ${host.padEnd(16)} ${m.toFixed(1)} s  (${(m / node).toFixed(2)}x Node's; runs ${walls[host].map((w) => w.toFixed(1)).join(', ')} s)`);
}
