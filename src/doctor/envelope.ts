import { existsSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { BASELINE_DIR } from '../results/baseline.js';
import { commandLine, FROM_SOURCES } from '../base/commands.js';
import { describeCpu, envelopeMachineAt, lookupProfileFile, otherHostIds, profileFilePath } from '../results/profile-files.js';
import { median } from '../measure/statistics.js';
import { readDoctorJson } from './files.js';
import { type Check, type DoctorReport, ENVELOPE_VERSION, type Envelope, envelopeSchema, type Figure, type FigureRange } from './schema.js';

/** A profile's envelope sits beside its baseline: baselines/<profile-id>.doctor.json (where one is written). */
export function envelopePathFor(profileId: string, dir = BASELINE_DIR): string {
  return profileFilePath(dir, profileId, 'envelope');
}

const SUFFIX = '.doctor.json';

/**
 * The envelope at `path`, or null when there is none; an invalid file throws DoctorFileError.
 * When `path` (<dir>/<profile>.doctor.json) does not exist, the legacy-named envelope of that
 * profile's kind of setup is read if it was made on this CPU (results/profile-files.ts).
 */
export async function readEnvelope(path: string): Promise<Envelope | null> {
  const name = basename(path);
  const found = existsSync(path) || !name.endsWith(SUFFIX) ? null : lookupProfileFile(dirname(path), name.slice(0, -SUFFIX.length), 'envelope');
  const at = found === null ? path : found.found === 'legacy' ? found.path : null;
  if (at === null || !existsSync(at)) return null;
  return readDoctorJson(at, envelopeSchema, 'gpu-transfer-perf doctor envelope', ENVELOPE_VERSION);
}

/** An envelope of this profile's device made on another host (another CPU model or core count): found, never applied. */
export interface ForeignEnvelope {
  /** The file found. */
  readonly path: string;
  /** The profile it records. */
  readonly profile: string;
  /** 'AMD EPYC, 2 cores', as its derivation records the machine; null when it records none. */
  readonly madeOn: string | null;
}

/** Where doctor finds profile `id`'s envelope in `dir`. */
export interface EnvelopeFind {
  /** The file to read: the id's own (present or not), or the legacy-named one made on this CPU. */
  readonly path: string;
  /** Why a legacy-named file serves this id, or null. */
  readonly note: string | null;
  /** No envelope of this id, but one of the same device made on another host (named by the legacy id, or by that host's id); else null. */
  readonly foreign: ForeignEnvelope | null;
}

function foreignEnvelope(path: string): ForeignEnvelope {
  const machine = envelopeMachineAt(path);
  return { path, profile: machine?.id ?? basename(path).slice(0, -SUFFIX.length), madeOn: machine?.cpu ? describeCpu(machine.cpu) : null };
}

/**
 * Profile `id`'s envelope in `dir`: its own, else the legacy-named one made on this CPU
 * (results/profile-files.ts lookupProfileFile). When neither exists, an envelope of the same
 * device made on another host is named as `foreign`: the legacy-named one made on another CPU,
 * else one named by the id of that device on another CPU model (otherHostIds, the first by id).
 */
export function findEnvelope(dir: string, id: string): EnvelopeFind {
  const lookup = lookupProfileFile(dir, id, 'envelope');
  if (lookup.found === 'legacy') return { path: lookup.path, note: lookup.note, foreign: null };
  if (lookup.found === 'other-machine') return { path: lookup.path, note: null, foreign: foreignEnvelope(lookup.legacyPath) };
  const other = lookup.found === 'none' ? otherHostIds(dir, id, 'envelope')[0] : undefined;
  return { path: lookup.path, note: null, foreign: other === undefined ? null : foreignEnvelope(profileFilePath(dir, other, 'envelope')) };
}

/** What to look at when a figure is below its range, by figure kind (the id's first part). */
const BELOW_HINTS: Record<string, string> = {
  upload:
    'check that the adapter is the GPU you expect, its PCIe link (`nvidia-smi -q | grep -A4 "PCI"` or `lspci -vv`: generation and width), and other load on the host or GPU',
  readback: 'check the PCIe link, the GPU power state (`nvidia-smi -q -d PERFORMANCE`) and other load on the host or GPU',
  copy: 'check the GPU clocks and power state (`nvidia-smi -q -d CLOCK,PERFORMANCE`) and other processes on the GPU',
  normalize: 'check that the vec4 decode program runs (src/transfer/kernels/normalize-packed-kernel.ts) and that the device is not throttled or shared',
  speedup:
    'the uint8 path lost ground against cpu-normalize: measure it properly with `npm run perf -- --scenario speedup` and check the upload path and decode kernel',
};
const SOFTWARE_HINT = 'on a software adapter the device is the CPU: check other load on the machine (`uptime`, `top`)';

/** 3 significant digits below 100 (12.3, 0.456, 1.00), whole numbers above (2345). */
export function formatValue(value: number): string {
  return Math.abs(value) >= 100 ? value.toFixed(0) : value.toPrecision(3);
}

/** A figure's value with its unit (and CI where it has one): '12.3 GB/s', '1.02x [0.98, 1.06]', '0.229'. */
export function formatFigure(figure: Pick<Figure, 'value' | 'unit' | 'ci'>): string {
  const unit = figure.unit === 'GB/s' ? ' GB/s' : figure.unit === 'x' ? 'x' : '';
  const ci = figure.ci ? ` [${figure.ci.map((v) => v.toFixed(2)).join(', ')}]` : '';
  return `${formatValue(figure.value)}${unit}${ci}`;
}

/** A range with its unit: '1.10-4.00 GB/s'. */
function formatRange(range: FigureRange): string {
  const unit = range.unit === 'GB/s' ? ' GB/s' : range.unit === 'x' ? 'x' : '';
  return `${formatValue(range.lo)}-${formatValue(range.hi)}${unit}`;
}

/** What a figure's judgment depends on besides the figure. */
export interface JudgeContext {
  /** The device is the CPU (a software adapter, wasm, cpu): host load is the first suspect. */
  readonly isSoftware: boolean;
  /** The host was busy when doctor started: a low figure may be the load, not the setup. */
  readonly busy: boolean;
  /** How to remake this envelope, as said where doctor runs (remakeAdvice). */
  readonly remake: string;
}

/**
 * Judges one figure against its profile's range: ok within; below fails, naming the distance and
 * what to check (a warning on a busy host, where load alone can explain it); above warns.
 */
export function judgeFigure(figure: Figure, envelope: Envelope, { isSoftware, busy, remake }: JudgeContext): Check {
  const id = `figure.${figure.id}`;
  const range = envelope.figures[figure.id];
  const value = `${figure.label}: ${formatFigure(figure)}`;
  if (!range) return { id, status: 'info', reason: `${value}: no range for this figure in the ${envelope.profile} envelope` };
  const span = formatRange(range);
  if (figure.value < range.lo) {
    const below = Math.round((100 * (range.lo - figure.value)) / range.lo);
    const hint = BELOW_HINTS[figure.id.split('.')[0]!] ?? 'check the setup';
    const look = busy ? 'the host was busy (see host.load): run doctor again on an idle machine' : isSoftware ? SOFTWARE_HINT : hint;
    return { id, status: busy ? 'warn' : 'fail', reason: `${value}: ${below}% below the range of ${envelope.profile} (${span}): ${look}` };
  }
  if (figure.value > range.hi) {
    const above = Math.round((100 * (figure.value - range.hi)) / range.hi);
    return {
      id,
      status: 'warn',
      reason: `${value}: ${above}% above the range of ${envelope.profile} (${span}): faster than the runs the envelope was made from; if this holds, remake it: ${remake}`,
    };
  }
  return { id, status: 'ok', reason: `${value}: within the range of ${envelope.profile} (${span})` };
}

/**
 * The command that (re)makes a profile's envelope where doctor runs, as base/commands.ts types
 * it there ('npm run doctor -- ...' in the repository and the kit, 'npx gtp doctor ...' where the
 * package is installed), so the advice names only what exists there. `sources` is for tests.
 */
export function envelopeCommand(path: string, backendFlag: string | null, sources: boolean = FROM_SOURCES): string {
  return commandLine('doctor', `${backendFlag ? `--backend ${backendFlag} ` : ''}--write-envelope ${path}`, sources);
}

/**
 * How to (re)make an envelope, said where doctor runs. The run kit has no npm scripts that run
 * (no node_modules/.bin) and no repository to commit to: there the advice is the repository's
 * command with the kit run's reports (./run writes doctor-<i>.json into results/<time>/).
 */
export function remakeAdvice(command: string, inKit: boolean): string {
  return inKit ? `back in the repository, from this kit run's reports: \`${command} --from results/<time>/\`` : `\`${command}\``;
}

/** How to make an envelope where doctor runs (`command`: envelopeCommand): in processes here, or from kit runs' reports. */
function makeAdvice(command: string, inKit: boolean): string {
  return inKit
    ? remakeAdvice(command, true)
    : `on an idle machine \`${command}\` (doctor in 8 processes), or from kit runs \`${command} --from results/<time>/\``;
}

/** What to say when a profile has no envelope, and how to make one (`command`: envelopeCommand). */
export function noEnvelopeCheck(profileId: string, path: string, command: string, inKit: boolean): Check {
  return {
    id: 'envelope',
    status: 'info',
    reason: `no envelope for profile ${profileId} (${path}): figures are shown, not compared with other machines of this kind (the physical verdicts need none). Make one ${makeAdvice(command, inKit)}`,
  };
}

/**
 * What to say when a profile has no envelope but its device has one made on another host
 * (findEnvelope's `foreign`): named, and not applied. Where the CPU does the device's work (a
 * software adapter, TensorFlow's CPU kernels) its rates are the host's own, and absolute rates
 * are never judged across CPUs; its ratios (normalize / copy, the speedup) have no measured
 * cross-CPU allowance (results/host-allowance.ts measures perf's), so nothing is judged. Info, as
 * for no envelope: nothing is wrong with this machine, it is only not judged.
 */
export function foreignEnvelopeCheck(
  foreign: ForeignEnvelope,
  here: { readonly id: string; readonly cpu: string; readonly cores: number },
  path: string,
  command: string,
  inKit: boolean,
): Check {
  const madeOn = foreign.madeOn ? `made on ${foreign.madeOn}` : 'made on a CPU it does not record';
  return {
    id: 'envelope',
    status: 'info',
    reason: `envelope ${foreign.path} (${foreign.profile}) is this device's ${madeOn}; this machine is ${describeCpu({ model: here.cpu, cores: here.cores })} (${here.id}): not applied, since the CPU does this device's work: its rates are the host's own, never judged across CPUs, and its ratios have no measured cross-CPU allowance; figures are shown, not judged. Make this machine's (${path}) ${makeAdvice(command, inKit)}`,
  };
}

/** How the envelope was made, for `deriveEnvelope`. */
export interface DerivationOptions {
  readonly margin: number;
  readonly machine: string;
  readonly git: string | null;
  readonly note: string;
  readonly createdAt?: string;
  /** Accept reports made on a busy host (the note should say so). */
  readonly allowBusy?: boolean;
}

/** Refuses reports that cannot make an envelope: no profile, mixed profiles or settings, failed setup checks. */
export function envelopeInputProblem(reports: readonly DoctorReport[], { allowBusy = false } = {}): string | null {
  if (reports.length === 0) return 'no doctor reports';
  const ids = new Set(reports.map((r) => r.profile?.id ?? '(no backend)'));
  if (ids.size !== 1 || ids.has('(no backend)')) return `the reports are of ${[...ids].join(', ')}: an envelope is made from one profile's reports`;
  if (new Set(reports.map((r) => r.settings.quick)).size !== 1) return 'the reports mix --quick and default runs';
  for (const r of reports) {
    // Figure judgments against an older envelope may fail; setup checks must not.
    const failed = r.checks.filter((c) => c.status === 'fail' && !c.id.startsWith('figure.'));
    if (failed.length > 0) return `a report (${r.createdAt}) has failed checks: ${failed.map((c) => c.id).join(', ')}; fix the setup first`;
    if (r.host?.busy && !allowBusy)
      return `a report (${r.createdAt}) was made on a busy host (other processes used ${Math.round(r.host.otherCpu * 100)}% of ${r.host.cores} cores): an envelope describes an idle machine`;
  }
  return null;
}

/**
 * The envelope of one profile from doctor reports of separate processes: each figure's range is
 * [min x (1 - margin), max x (1 + margin)] over the processes' values. The margin covers what
 * the processes did not show (the next run can fall outside the observed span).
 */
export function deriveEnvelope(reports: readonly DoctorReport[], options: DerivationOptions): Envelope {
  const problem = envelopeInputProblem(reports, { allowBusy: options.allowBusy ?? false });
  if (problem) throw new RangeError(problem);
  const byId = new Map<string, Figure[]>();
  for (const figure of reports.flatMap((r) => r.figures)) byId.set(figure.id, [...(byId.get(figure.id) ?? []), figure]);
  const figures: Record<string, FigureRange> = {};
  for (const [id, list] of byId) {
    const values = list.map((f) => f.value);
    const min = Math.min(...values);
    const max = Math.max(...values);
    figures[id] = {
      unit: list[0]!.unit,
      lo: min * (1 - options.margin),
      hi: max * (1 + options.margin),
      observed: { n: values.length, min, median: median(values), max },
    };
  }
  return envelopeSchema.parse({
    schemaVersion: ENVELOPE_VERSION,
    kind: 'gpu-transfer-perf doctor envelope',
    profile: reports[0]!.profile!.id,
    createdAt: options.createdAt ?? new Date().toISOString(),
    derivation: {
      processes: reports.length,
      margin: options.margin,
      quick: reports[0]!.settings.quick,
      machine: options.machine,
      git: options.git,
      note: options.note,
    },
    figures,
  });
}
