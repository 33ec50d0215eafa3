/**
 * Makes a profile's doctor envelope, baselines/<profile-id>.doctor.json, from doctor runs in
 * separate processes (what one process cannot show: allocator, JIT and driver state, and the
 * machine's load, differ between processes):
 *
 *   npx tsx scripts/make-doctor-envelope.ts                      # 8 doctor processes here
 *   npx tsx scripts/make-doctor-envelope.ts --runs 12 --margin 0.3
 *   npx tsx scripts/make-doctor-envelope.ts --from a.json b.json # doctor --json reports (kit runs)
 *
 * Each figure's range is [min x (1 - margin), max x (1 + margin)] over the processes' values.
 * An envelope describes an idle machine: reports made while the host was busy (other processes
 * above 30% of its CPU time, src/doctor/host-load.ts) are set aside unless --include-busy. Prints every figure's spread between
 * processes, so the margin can be judged.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { deriveEnvelope, envelopeInputProblem, envelopePathFor, formatValue } from '../src/doctor/envelope.js';
import { readDoctorReport } from '../src/doctor/files.js';
import type { DoctorReport } from '../src/doctor/schema.js';
import { writeJsonAtomic } from '../src/results/storage.js';
import { gitState } from '../src/runner/git.js';
import { EXIT } from '../src/results/exit.js';

// 8 processes: the count perf:calibrate uses for its cross-process A/A (README).
const DEFAULT_RUNS = 8;
// Widening beyond the observed span. 0.5: on the 2-core lavapipe machine per-process spreads reach
// 3x, and with 0.3 the next run after an envelope put 2 of 17 figures below their ranges.
const DEFAULT_MARGIN = 0.5;
const PAUSE_MS = 3000;

function usage(message: string): never {
  console.error(
    `error: ${message}\nusage: npx tsx scripts/make-doctor-envelope.ts [--runs N] [--margin M] [--quick] [--backend B] [--out FILE] [--include-busy] [--note TEXT] [--from REPORT.json ...]`,
  );
  process.exit(EXIT.badInput);
}

const OPTIONS = {
  runs: { type: 'string' },
  margin: { type: 'string' },
  quick: { type: 'boolean' },
  backend: { type: 'string' },
  out: { type: 'string' },
  from: { type: 'boolean' },
  note: { type: 'string' },
  'include-busy': { type: 'boolean' },
} as const;

function parse() {
  try {
    return parseArgs({ allowPositionals: true, options: OPTIONS });
  } catch (error) {
    return usage((error as Error).message);
  }
}

function options() {
  const { values, positionals } = parse();
  const runs = Number(values.runs ?? DEFAULT_RUNS);
  const margin = Number(values.margin ?? DEFAULT_MARGIN);
  if (!Number.isInteger(runs) || runs < 2) usage('--runs must be an integer >= 2');
  if (!(margin >= 0 && margin < 1)) usage('--margin must be in [0, 1)');
  if (values.from && positionals.length === 0) usage('--from needs doctor report files');
  if (!values.from && positionals.length > 0) usage(`unexpected arguments: ${positionals.join(' ')} (report files go after --from)`);
  return {
    runs,
    margin,
    quick: values.quick === true,
    backend: values.backend ?? null,
    out: values.out ?? null,
    from: values.from ? positionals : null,
    note: values.note ?? null,
    includeBusy: values['include-busy'] === true,
  };
}

/** Runs doctor `runs` times, one process each, one after another; returns the reports. */
async function runDoctors(runs: number, quick: boolean, backend: string | null): Promise<DoctorReport[]> {
  const tsx = join('node_modules', 'tsx', 'dist', 'cli.mjs');
  if (!existsSync(tsx)) usage(`${tsx} not found: run from the project root after npm ci`);
  const dir = join('.tmp', `doctor-envelope-${Date.now()}`);
  await mkdir(dir, { recursive: true });
  const reports: DoctorReport[] = [];
  for (let i = 0; i < runs; i++) {
    const file = join(dir, `doctor-${i + 1}.json`);
    const args = [tsx, 'src/cli/main.ts', 'doctor', '--json', file, ...(quick ? ['--quick'] : []), ...(backend ? ['--backend', backend] : [])];
    const started = performance.now();
    const result = spawnSync(process.execPath, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    // Exit 1 is allowed: figures judged against an older envelope may fail; setup failures are refused later.
    if (result.status !== 0 && result.status !== 1) {
      console.error(result.stdout, result.stderr);
      throw new Error(`doctor run ${i + 1} exited ${result.status}`);
    }
    const report = await readDoctorReport(file);
    reports.push(report);
    const load = `others used ${Math.round(report.host.otherCpu * 100)}% of ${report.host.cores} cores${report.host.busy ? ', BUSY' : ''}`;
    console.log(`doctor ${i + 1}/${runs}: ${((performance.now() - started) / 1000).toFixed(1)} s, ${load} (${file})`);
    // A pause, so that one doctor's exit (device teardown) does not count as the next one's load.
    await new Promise((r) => setTimeout(r, PAUSE_MS));
  }
  return reports;
}

/** One line per figure: how much it moved between processes, and the range it gets. */
function printSpread(reports: readonly DoctorReport[], envelope: ReturnType<typeof deriveEnvelope>): void {
  console.log(`\n${'figure'.padEnd(30)} ${'n'.padStart(3)} ${'min'.padStart(8)} ${'median'.padStart(8)} ${'max'.padStart(8)} ${'max/min'.padStart(8)}   range`);
  for (const [id, r] of Object.entries(envelope.figures)) {
    const o = r.observed;
    console.log(
      `${id.padEnd(30)} ${String(o.n).padStart(3)} ${formatValue(o.min).padStart(8)} ${formatValue(o.median).padStart(8)} ${formatValue(o.max).padStart(8)} ${(o.max / o.min).toFixed(2).padStart(8)}   ${formatValue(r.lo)}-${formatValue(r.hi)} ${r.unit}`,
    );
  }
  console.log(`\n${reports.length} processes, margin ${envelope.derivation.margin}`);
}

async function main(): Promise<void> {
  const o = options();
  const all = o.from ? await Promise.all(o.from.map((f) => readDoctorReport(f))) : await runDoctors(o.runs, o.quick, o.backend);
  const reports = o.includeBusy ? all : all.filter((r) => !r.host.busy);
  if (reports.length < all.length)
    console.log(`set aside ${all.length - reports.length} of ${all.length} reports made on a busy host (--include-busy keeps them)`);
  if (reports.length === 0) usage('every report was made on a busy host: run again when the machine is idle, or pass --include-busy');
  const problem = envelopeInputProblem(reports, { allowBusy: o.includeBusy });
  if (problem) usage(problem);
  const first = reports[0]!.profile!;
  const cpus = os.cpus();
  const machine = o.from
    ? `${first.cpu} x${first.cores}, ${reports[0]!.os}, ${first.adapter ?? first.backend}`
    : `${cpus[0]?.model.trim() ?? 'unknown CPU'} x${cpus.length}, ${os.platform()} ${os.release()} ${os.arch()}, ${first.adapter ?? first.backend}`;
  const envelope = deriveEnvelope(reports, {
    allowBusy: o.includeBusy,
    margin: o.margin,
    machine,
    git: gitState().commit,
    note:
      o.note ??
      `ranges = [min x (1 - ${o.margin}), max x (1 + ${o.margin})] over ${reports.length} doctor processes${o.from ? ' (reports given with --from)' : ' run one after another on this machine'}`,
  });
  printSpread(reports, envelope);
  const out = o.out ?? envelopePathFor(envelope.profile);
  await writeJsonAtomic(out, envelope);
  console.log(`envelope: ${out} (commit it beside the profile's baseline)`);
}

await main();
