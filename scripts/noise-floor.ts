/**
 * Where the between-process spread of the MNIST speedup comes from (issue 27): a nested design of
 * processes x sessions per process x interleaved pairs per session, one factor changed at a time.
 *
 *   npx tsx scripts/noise-floor.ts [--processes 12] [--sessions 4] [--pairs 60] [--warmup 10]
 *                                  [--condition NAME]... [--out FILE]
 *
 * A session is a fresh pair of strategies (the host path's reused Float32Array, the device path's
 * upload buffers) on the process's one Dawn device and tfjs backend. Conditions (each a separate
 * run of all processes, alternated process by process so drift lands on every condition):
 *   base          as `gtp perf` measures today
 *   lp1           LP_NUM_THREADS=1: lavapipe rasterizes on one worker thread, not one per core
 *   lp0           LP_NUM_THREADS=0: lavapipe runs the shaders on the submitting thread
 *   pin0          the whole process pinned to CPU 0 (taskset)
 *   tfjs-upload   the host path uploads through tfjs (the tensor's own buffer) instead of writeBuffer
 * Per process it prints the per-session medians of both strategies and the median pair ratio;
 * at the end, per condition, the nested ANOVA's variance components of log(pair ratio) and the
 * processes' modes, then the same adjusted for the host loop timed as a third variant of every
 * pair (each session's log ratio regressed on its median log host-loop time: the covariate the
 * harness's host-state probe, src/measure/host-probe.ts, gives the verdicts). Variance components of a balanced nested design (Sokal & Rohlf, Biometry,
 * 4th ed., section 10.3; Montgomery, Design and Analysis of Experiments, 14.1):
 *   s2_pair    = MS_within
 *   s2_session = (MS_session - MS_within) / P
 *   s2_process = (MS_process - MS_session) / (S * P)
 * It measures: run it on a quiet machine (nothing else loading the cores).
 */
import * as tf from '@tensorflow/tfjs';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { parseArgs, promisify } from 'node:util';
import { startBackend } from '../src/backend/start.js';
import { BatchLoader } from '../src/data/loader.js';
import { loadMnistPackage } from '../src/data/mnist-package.js';
import { sampleInterleaved } from '../src/measure/paired.js';
import { median } from '../src/measure/statistics.js';
import { timeSynced } from '../src/measure/timer.js';
import { ARTICLE_BATCH } from '../src/suite/sizes.js';
import { ARTICLE_NORMALIZATION, normalizationTable, normalizeWithTable } from '../src/transfer/normalization.js';
import { cpuNormalize, deviceNormalize } from '../src/transfer/strategies/strategies.js';

const run = promisify(execFile);

interface SessionResult {
  readonly session: number;
  readonly medianA: number;
  readonly medianB: number;
  /** Median of a bare device sync (nothing submitted): the floor every timing carries. */
  readonly syncMs: number;
  /** Median of the host normalize loop alone (the table path cpu-normalize runs), no device. */
  readonly hostMs: number;
  readonly logRatios: number[];
  /** The host normalize loop alone, timed inside each pair (a third variant): the host's state then. */
  readonly logHostPerPair: number[];
}

interface ProcessResult {
  readonly condition: string;
  readonly process: number;
  readonly lastCpu: number | null;
  readonly sessions: SessionResult[];
}

const CONDITIONS: Record<string, { env?: NodeJS.ProcessEnv; prefix?: string[]; childArgs?: string[] }> = {
  base: {},
  lp1: { env: { LP_NUM_THREADS: '1' } },
  lp0: { env: { LP_NUM_THREADS: '0' } },
  pin0: { prefix: ['taskset', '-c', '0'] },
  'tfjs-upload': { childArgs: ['--upload', 'tfjs'] },
};

/** The CPU this process last ran on (/proc/self/stat field 39), null off Linux. */
async function lastCpu(): Promise<number | null> {
  try {
    const { readFile } = await import('node:fs/promises');
    const stat = await readFile('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[36]);
  } catch {
    return null;
  }
}

async function child(sessions: number, pairs: number, warmup: number, upload: string): Promise<void> {
  const context = await startBackend('webgpu', 'webgpu');
  const images = loadMnistPackage();
  const batches = [...new BatchLoader(images, { ...ARTICLE_BATCH, dropLast: true }).epoch(0)];
  const batchOf = (round: number) => batches[round % batches.length]!;
  const results: SessionResult[] = [];
  for (let s = 0; s < sessions; s++) {
    const host = cpuNormalize(context, undefined, { upload: upload === 'tfjs' ? 'tfjs' : 'device-buffer' });
    const device = deviceNormalize();
    const table = normalizationTable(ARTICLE_NORMALIZATION);
    const into = new Float32Array(batchOf(0).images.length);
    const [a, b, h] = await sampleInterleaved(
      [
        (round) => timeSynced(context, () => host.toDevice(batchOf(round))),
        (round) => timeSynced(context, () => device.toDevice(batchOf(round))),
        (round) => {
          const start = performance.now();
          normalizeWithTable(batchOf(round).images, table, into);
          return performance.now() - start;
        },
      ],
      { warmupRounds: warmup, rounds: pairs },
    );
    const samples = { a: a!, b: b! };
    const syncs: number[] = [];
    const probe = tf.scalar(0);
    for (let i = 0; i < pairs; i++) {
      const start = performance.now();
      await context.sync(probe);
      syncs.push(performance.now() - start);
    }
    probe.dispose();
    const hosts: number[] = [];
    for (let i = 0; i < pairs; i++) {
      const start = performance.now();
      normalizeWithTable(batchOf(i).images, table, into);
      hosts.push(performance.now() - start);
    }
    results.push({
      session: s,
      hostMs: median(hosts),
      medianA: median(samples.a),
      medianB: median(samples.b),
      syncMs: median(syncs),
      logRatios: samples.a.map((a, i) => Math.log(a / samples.b[i]!)),
      logHostPerPair: h!.map(Math.log),
    });
  }
  process.stdout.write(`${JSON.stringify({ lastCpu: await lastCpu(), sessions: results })}\n`);
}

/** Mean of `xs`. */
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Variance components of log(pair ratio) by level; the design must be balanced (S sessions of P pairs in every process). */
export function nestedComponents(processes: readonly ProcessResult[]): { process: number; session: number; pair: number } {
  const N = processes.length;
  const S = processes[0]!.sessions.length;
  const P = processes[0]!.sessions[0]!.logRatios.length;
  const grand = mean(processes.flatMap((p) => p.sessions.flatMap((s) => s.logRatios)));
  let ssProcess = 0;
  let ssSession = 0;
  let ssWithin = 0;
  for (const p of processes) {
    const sessionMeans = p.sessions.map((s) => mean(s.logRatios));
    const processMean = mean(sessionMeans);
    ssProcess += S * P * (processMean - grand) ** 2;
    for (const [j, s] of p.sessions.entries()) {
      ssSession += P * (sessionMeans[j]! - processMean) ** 2;
      for (const y of s.logRatios) ssWithin += (y - sessionMeans[j]!) ** 2;
    }
  }
  const msProcess = ssProcess / (N - 1);
  const msSession = ssSession / (N * (S - 1));
  const msWithin = ssWithin / (N * S * (P - 1));
  // Negative estimates (sampling noise) are reported as 0, the usual truncation.
  return {
    process: Math.max(0, (msProcess - msSession) / (S * P)),
    session: Math.max(0, (msSession - msWithin) / P),
    pair: msWithin,
  };
}

/** Splits per-process log ratios at their widest gap: the two modes, if there are two (shown as ratios). */
function modes(values: readonly number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  let cut = 1;
  for (let i = 1; i < sorted.length; i++) if (sorted[i]! - sorted[i - 1]! > sorted[cut]! - sorted[cut - 1]!) cut = i;
  const low = sorted.slice(0, cut);
  const high = sorted.slice(cut);
  const f = (xs: number[]) => `${xs.length} at ${Math.exp(xs[0]!).toFixed(3)}-${Math.exp(xs.at(-1)!).toFixed(3)}x`;
  return `widest gap between processes ${(100 * (sorted[cut]! - sorted[cut - 1]!)).toFixed(1)}% (log): ${f(low)} | ${f(high)}`;
}

/** Least-squares slope and R^2 of ys on xs. */
function slopeOf(xs: readonly number[], ys: readonly number[]): { slope: number; r2: number } {
  const mx = mean(xs);
  const my = mean(ys);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (const [i, x] of xs.entries()) {
    sxy += (x - mx) * (ys[i]! - my);
    sxx += (x - mx) ** 2;
    syy += (ys[i]! - my) ** 2;
  }
  return { slope: sxy / sxx, r2: (sxy * sxy) / (sxx * syy) };
}

/**
 * The host-state covariate (analysis of covariance, Montgomery 15.3): each session's log ratio
 * regressed on its median log host-loop time, pairs adjusted to the condition's mean host time by
 * that slope, and the nested components of the adjusted values beside the raw ones.
 */
function covariateSummary(name: string, processes: readonly ProcessResult[]): string {
  const sessions = processes.flatMap((p) => p.sessions);
  const h = sessions.map((s) => median(s.logHostPerPair));
  const y = sessions.map((s) => mean(s.logRatios));
  const { slope, r2 } = slopeOf(h, y);
  const centre = mean(h);
  const adjusted = processes.map((p) => ({
    ...p,
    sessions: p.sessions.map((s) => {
      const shift = slope * (median(s.logHostPerPair) - centre);
      return { ...s, logRatios: s.logRatios.map((v) => v - shift) };
    }),
  }));
  const v = nestedComponents(adjusted);
  const sd = (x: number) => `${(100 * Math.sqrt(x)).toFixed(1)}%`;
  const perProcess = adjusted.map((p) => median(p.sessions.flatMap((s) => s.logRatios)));
  const rawPerProcess = processes.map((p) => median(p.sessions.flatMap((s) => s.logRatios)));
  const sdOf = (xs: number[]) => Math.sqrt(mean(xs.map((x) => (x - mean(xs)) ** 2)) * (xs.length / (xs.length - 1)));
  return `${name}, adjusted for the host loop (slope ${slope.toFixed(3)} per log unit, R^2 ${r2.toFixed(2)} over ${sessions.length} sessions; host loop ${Math.exp(centre).toFixed(4)} ms at the centre): centre ${Math.exp(mean(perProcess)).toFixed(3)}x (raw ${Math.exp(mean(rawPerProcess)).toFixed(3)}x); SD between processes ${sd(v.process)}, sessions ${sd(v.session)}, pairs ${sd(v.pair)}; SD of per-process medians ${(100 * sdOf(perProcess)).toFixed(1)}% (raw ${(100 * sdOf(rawPerProcess)).toFixed(1)}%); ${modes(perProcess)}`;
}

async function driver(options: {
  processes: number;
  sessions: number;
  pairs: number;
  warmup: number;
  conditions: string[];
  out: string | null;
}): Promise<void> {
  const all: ProcessResult[] = [];
  for (let i = 0; i < options.processes; i++) {
    for (const name of options.conditions) {
      const c = CONDITIONS[name];
      if (!c) throw new Error(`unknown condition ${name}; known: ${Object.keys(CONDITIONS).join(', ')}`);
      const args = [
        '--import',
        'tsx',
        import.meta.filename,
        '--child',
        '--sessions',
        String(options.sessions),
        '--pairs',
        String(options.pairs),
        '--warmup',
        String(options.warmup),
        ...(c.childArgs ?? []),
      ];
      const [cmd, ...rest] = [...(c.prefix ?? []), process.execPath, ...args];
      const { stdout } = await run(cmd!, rest, { env: { ...process.env, ...c.env }, maxBuffer: 64 << 20 });
      const parsed = JSON.parse(stdout.trim().split('\n').at(-1)!) as Omit<ProcessResult, 'condition' | 'process'>;
      const result = { condition: name, process: i, ...parsed };
      all.push(result);
      const ratios = result.sessions.map((s) => Math.exp(median(s.logRatios)).toFixed(3)).join(' ');
      const a = result.sessions.map((s) => s.medianA.toFixed(3)).join(' ');
      const b = result.sessions.map((s) => s.medianB.toFixed(3)).join(' ');
      const sync = result.sessions.map((s) => s.syncMs.toFixed(3)).join(' ');
      const hostOnly = result.sessions.map((s) => s.hostMs.toFixed(3)).join(' ');
      console.log(
        `${name.padEnd(12)} #${i} cpu${result.lastCpu}: ratio by session ${ratios} | cpu-normalize ms ${a} | device-normalize ms ${b} | bare sync ms ${sync} | host loop ms ${hostOnly}`,
      );
    }
  }
  console.log(`\n${cpus().length} CPUs; ${options.processes} processes x ${options.sessions} sessions x ${options.pairs} pairs per condition`);
  for (const name of options.conditions) {
    const mine = all.filter((r) => r.condition === name);
    const v = nestedComponents(mine);
    const sd = (x: number) => `${(100 * Math.sqrt(x)).toFixed(1)}%`;
    const perProcess = mine.map((p) => median(p.sessions.flatMap((s) => s.logRatios)));
    const centre = Math.exp(mean(perProcess));
    const sdProcessMedians = Math.sqrt(mean(perProcess.map((x) => (x - mean(perProcess)) ** 2)) * (perProcess.length / (perProcess.length - 1)));
    console.log(
      `${name}: centre ${centre.toFixed(3)}x; SD(log) between processes ${sd(v.process)}, between sessions ${sd(v.session)}, between pairs ${sd(v.pair)}; SD of per-process medians ${(100 * sdProcessMedians).toFixed(1)}%; ${modes(perProcess)}`,
    );
  }
  for (const name of options.conditions)
    console.log(
      covariateSummary(
        name,
        all.filter((r) => r.condition === name),
      ),
    );
  if (options.out) await writeFile(options.out, `${JSON.stringify(all, null, 1)}\n`);
}

const { values } = parseArgs({
  options: {
    child: { type: 'boolean', default: false },
    processes: { type: 'string', default: '12' },
    sessions: { type: 'string', default: '4' },
    pairs: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '10' },
    upload: { type: 'string', default: 'device-buffer' },
    condition: { type: 'string', multiple: true, default: ['base'] },
    out: { type: 'string' },
  },
});
if (values.child) await child(Number(values.sessions), Number(values.pairs), Number(values.warmup), values.upload);
else
  await driver({
    processes: Number(values.processes),
    sessions: Number(values.sessions),
    pairs: Number(values.pairs),
    warmup: Number(values.warmup),
    conditions: values.condition,
    out: values.out ?? null,
  });
