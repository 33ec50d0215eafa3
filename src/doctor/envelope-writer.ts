import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { hostCpuModel } from '../backend/hardware-profile.js';
import { notRegularReasonSync, outputStream, readRegularFile } from '../base/regular-file.js';
import { checkOutputEntry, checkWritableDir, OutputPathError, writeJsonOutput } from '../results/output-guard.js';
import { deriveEnvelope, envelopeInputProblem, envelopePathFor, formatValue } from './envelope.js';
import { readDoctorReport } from './files.js';
import type { DoctorReport, Envelope } from './schema.js';

/**
 * `doctor --write-envelope FILE`: a profile's envelope ("same as our other machines of this
 * kind") from doctor runs in separate processes (what one process cannot show: allocator, JIT
 * and driver state, and the machine's load, differ between processes), or from the reports of
 * earlier runs (`--from`: kit runs' results/<time>/ folders or doctor-*.json files). Each figure's
 * range is [min x (1 - margin), max x (1 + margin)] over the processes' values.
 */

/** Reports that cannot make an envelope, or a folder without any: one line, exit 2. */
export class EnvelopeInputError extends Error {
  override readonly name = 'EnvelopeInputError';
}

// 8 processes: the count perf:calibrate uses for its cross-process A/A (README).
export const DEFAULT_ENVELOPE_PROCESSES = 8;
// Widening beyond the observed span. 0.5: on the 2-core lavapipe machine per-process spreads reach
// 3x, and with 0.3 the next run after an envelope put 2 of 17 figures below their ranges.
export const DEFAULT_MARGIN = 0.5;
// A pause between processes, so that one doctor's exit (device teardown) does not count as the next one's load.
const PAUSE_MS = 3000;

export interface EnvelopeWriteOptions {
  /** Where to write; null: the profile's own, baselines/<profile-id>.doctor.json (known once a report is read). */
  readonly out: string | null;
  /** Report files or folders of them (doctor*.json inside); empty: run `processes` doctors here. */
  readonly from: readonly string[];
  readonly processes: number;
  readonly margin: number;
  readonly includeBusy: boolean;
  readonly note: string | null;
  readonly quick: boolean;
  readonly backend: string | null;
  /** Replace a file at `out` that is not a doctor envelope. */
  readonly force: boolean;
  /** How to start doctor here: the node binary, its flags (tsx's loader in the repository) and the CLI's main script. */
  readonly selfCommand: readonly string[];
  readonly git: string | null;
  readonly say: (line: string) => void;
}

/** The doctor reports named by --from: files as given, folders' doctor*.json files, sorted. */
export function reportFiles(paths: readonly string[]): string[] {
  const files: string[] = [];
  for (const path of paths) {
    const info = statSync(path, { throwIfNoEntry: false });
    if (!info) throw new EnvelopeInputError(`--from ${path}: no such file or folder`);
    if (!info.isDirectory()) files.push(path);
    else {
      const inside = readdirSync(path)
        .filter((f) => /^doctor.*\.json$/.test(f))
        .sort();
      if (inside.length === 0) throw new EnvelopeInputError(`--from ${path}: no doctor*.json reports in the folder`);
      files.push(...inside.map((f) => join(path, f)));
    }
    // Each report is read only if it is a regular file (a FIFO would block the read): known from stat alone.
    for (const file of files) {
      const reason = notRegularReasonSync(file);
      if (reason) throw new EnvelopeInputError(`--from ${file}: ${reason.reason}; name a doctor report or a folder of them`);
    }
  }
  return files;
}

/** Before anything runs: `out` is a file that may be written (an earlier envelope is replaced; another file only with --force). */
export async function checkEnvelopeOutput(out: string, force: boolean): Promise<void> {
  if (outputStream(out)) return;
  // From lstat/stat alone: a FIFO or device is refused before anything opens it, forced or not.
  const existing = await checkOutputEntry(out, `--write-envelope ${out}`, { example: '<profile>.doctor.json', stdoutHint: true });
  await checkWritableDir(dirname(out), `--write-envelope ${out}`);
  if (existing.kind === 'missing' || force) return;
  const text = await readRegularFile(out).then(
    (bytes) => bytes.toString('utf8'),
    () => '',
  );
  const kind = (() => {
    try {
      return (JSON.parse(text) as { kind?: unknown }).kind;
    } catch {
      return null;
    }
  })();
  if (kind !== 'gpu-transfer-perf doctor envelope')
    throw new OutputPathError(`--write-envelope ${out} exists and is not a doctor envelope: refusing to overwrite it; choose another path, or pass --force`);
}

/** Runs doctor `runs` times, one process each, one after another; returns the reports. */
async function runDoctors(o: EnvelopeWriteOptions): Promise<DoctorReport[]> {
  const dir = await mkdtemp(join(tmpdir(), 'gtp-envelope-'));
  const [node, ...args] = o.selfCommand;
  try {
    const reports: DoctorReport[] = [];
    for (let i = 0; i < o.processes; i++) {
      const file = join(dir, `doctor-${i + 1}.json`);
      const flags = ['doctor', '--json', file, ...(o.quick ? ['--quick'] : []), ...(o.backend ? ['--backend', o.backend] : [])];
      const started = performance.now();
      const result = spawnSync(node!, [...args, ...flags], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      // Exit 1 is allowed: figures judged against an older envelope may fail; setup failures are refused later.
      if (result.status !== 0 && result.status !== 1) {
        throw new EnvelopeInputError(`doctor process ${i + 1} exited ${result.status}: ${(result.stderr || result.stdout).trim().split('\n').at(-1) ?? ''}`);
      }
      const report = await readDoctorReport(file);
      reports.push(report);
      const load = report.host ? `others used ${Math.round(report.host.otherCpu * 100)}% of ${report.host.cores} cores${report.host.busy ? ', BUSY' : ''}` : '';
      o.say(`doctor ${i + 1}/${o.processes}: ${((performance.now() - started) / 1000).toFixed(1)} s, ${load}`);
      if (i + 1 < o.processes) await new Promise((r) => setTimeout(r, PAUSE_MS));
    }
    return reports;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** One line per figure: how much it moved between processes, and the range it gets. */
function spread(envelope: Envelope): string[] {
  const lines = [
    `${'figure'.padEnd(30)} ${'n'.padStart(3)} ${'min'.padStart(8)} ${'median'.padStart(8)} ${'max'.padStart(8)} ${'max/min'.padStart(8)}   range`,
  ];
  for (const [id, r] of Object.entries(envelope.figures)) {
    const o = r.observed;
    lines.push(
      `${id.padEnd(30)} ${String(o.n).padStart(3)} ${formatValue(o.min).padStart(8)} ${formatValue(o.median).padStart(8)} ${formatValue(o.max).padStart(8)} ${(o.max / o.min).toFixed(2).padStart(8)}   ${formatValue(r.lo)}-${formatValue(r.hi)} ${r.unit}`,
    );
  }
  return lines;
}

/**
 * Where --from reports came from, for the envelope's note: their file names and when they were
 * made (a kit run's reports are read far from the machine, so the note is all that says which run).
 */
export function fromReports(files: readonly string[], reports: readonly DoctorReport[]): string {
  const times = reports.map((r) => r.createdAt).sort();
  const when = times[0] === times.at(-1) ? times[0] : `${times[0]} to ${times.at(-1)}`;
  return `reports given with --from: ${files.map((f) => basename(f)).join(', ')}, made ${when}`;
}

/**
 * Makes the envelope (its output checked and the --from reports read before any doctor runs) and
 * the path it goes to, checked writable; prints each figure's spread between processes. Writes nothing.
 */
export async function makeEnvelope(o: EnvelopeWriteOptions): Promise<{ envelope: Envelope; path: string }> {
  if (o.out !== null) await checkEnvelopeOutput(o.out, o.force);
  const fromFiles = o.from.length > 0;
  const files = fromFiles ? reportFiles(o.from) : [];
  const all = fromFiles ? await Promise.all(files.map((f) => readDoctorReport(f))) : await runDoctors(o);
  const reports = o.includeBusy ? all : all.filter((r) => !r.host?.busy);
  if (reports.length < all.length) o.say(`set aside ${all.length - reports.length} of ${all.length} reports made on a busy host`);
  if (reports.length === 0) throw new EnvelopeInputError('every report was made on a busy host: run again when the machine is idle');
  const problem = envelopeInputProblem(reports, { allowBusy: o.includeBusy });
  if (problem) throw new EnvelopeInputError(problem);
  const first = reports[0]!.profile!;
  const machine = fromFiles
    ? `${first.cpu} x${first.cores}, ${reports[0]!.os}, ${first.adapter ?? first.backend}`
    : // The cores the process may use, as the profile id counts them (os.availableParallelism).
      `${hostCpuModel()} x${os.availableParallelism()}, ${os.platform()} ${os.release()} ${os.arch()}, ${first.adapter ?? first.backend}`;
  const envelope = deriveEnvelope(reports, {
    allowBusy: o.includeBusy,
    margin: o.margin,
    machine,
    git: o.git,
    note:
      o.note ??
      `ranges = [min x (1 - ${o.margin}), max x (1 + ${o.margin})] over ${reports.length} doctor processes${fromFiles ? ` (${fromReports(files, all)}; git: the commit that wrote this envelope, not the one that measured)` : ' run one after another on this machine'}`,
  });
  for (const line of ['', ...spread(envelope), '', `${reports.length} processes, margin ${envelope.derivation.margin}`]) o.say(line);
  const path = o.out ?? envelopePathFor(envelope.profile);
  if (o.out === null) await checkEnvelopeOutput(path, o.force);
  return { envelope, path };
}

/** Makes the envelope (makeEnvelope) and writes it to its path. */
export async function writeEnvelope(o: EnvelopeWriteOptions): Promise<{ envelope: Envelope; path: string }> {
  const made = await makeEnvelope(o);
  await writeJsonOutput(made.path, made.envelope);
  return made;
}
