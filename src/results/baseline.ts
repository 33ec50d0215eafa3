import { existsSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { metricList, metricSchema, runRecordSchema, skippedScenarioSchema, type RunRecord, type SkippedScenario } from './schema.js';
import { RecordFileError, readJsonFile } from './storage.js';
import { DEFAULT_TOLERANCE } from './verdict.js';
import { commandLine } from '../base/commands.js';
import type { AnyDatasetSource } from '../data/source.js';
import { DATASET_SOURCES, sourcesOf } from '../data/sources.js';
import { lookupBaselineFile, profileFilePath, withCurrentId, type ProfileFileLookup } from './profile-files.js';

/** A baseline: an accepted run record whose metrics each carry the tolerance they are judged with. */
export const baselineSchema = runRecordSchema.extend({
  // extend keeps metricSchema's plausibility checks; metricList adds the unique-id check.
  metrics: metricList(metricSchema.extend({ tolerance: z.number().min(0) }).strict()),
  /** Which run was accepted, and when. */
  accepted: z.object({ from: z.string(), at: z.iso.datetime() }).strict(),
  /**
   * Scenarios this baseline has no figures for, and why (skipped for a missing tool, or left out
   * for failed checks); a later run that has them merges in. Absent: none lacking.
   */
  lacks: z.array(skippedScenarioSchema).optional(),
});
export type Baseline = z.infer<typeof baselineSchema>;

/** Per-metric tolerance overrides, checked in as baselines/tolerances.json: { "<metric id>": 0.15 }. */
const toleranceOverridesSchema = z.record(z.string().regex(/^[a-z0-9][a-z0-9.-]*$/), z.number().min(0));
export type ToleranceOverrides = z.infer<typeof toleranceOverridesSchema>;

export const BASELINE_DIR = 'baselines';
const TOLERANCES_FILE = join(BASELINE_DIR, 'tolerances.json');

/** Where two runs read different data for the same data set, in words; null when none differ. */
export function datasetMismatch(baseline: Readonly<Record<string, string>>, run: Readonly<Record<string, string>>): string | null {
  for (const [name, data] of Object.entries(run)) {
    const before = baseline[name];
    if (before !== undefined && before !== data) return `the baseline read ${before} as ${name} data and this run ${data}`;
  }
  return null;
}

/**
 * Where a baseline holds metrics of a data set it does not describe (a baseline merged before
 * merges kept the update's `datasets`: both browser baselines' Kinetics) and the run read other
 * data for it than the default, in words; null otherwise. Such a baseline was measured on the
 * default data (the committed fixture, the mnist package): a run on the user's own data is not
 * judged against its figures, as datasetMismatch refuses it where the baseline says what it read.
 */
export function undescribedDataMismatch(
  baseline: Pick<Baseline, 'datasets' | 'metrics'>,
  run: Readonly<Record<string, string>>,
  sources: readonly AnyDatasetSource[] = DATASET_SOURCES,
): string | null {
  for (const [name, data] of Object.entries(run)) {
    if (Object.hasOwn(baseline.datasets, name)) continue;
    const source = sources.find((s) => s.name === name);
    // Data of a question (--shape, --image-folder) or a user's own source: no default to stand for.
    if (!source || data === source.defaultDescription) continue;
    const held = baseline.metrics.find((m) => sourcesOf(m.scenario, sources).includes(source));
    if (held)
      return `the baseline holds ${held.scenario} metrics but does not say which ${name} data they were measured on (so the default: ${source.defaultDescription}), and this run read ${data}`;
  }
  return null;
}

/** Where the baseline of a profile is written: quick scale at <id>.json, full scale at <id>.full.json. */
export function baselinePathFor(profileId: string, scale: RunRecord['scale'], dir = BASELINE_DIR): string {
  return profileFilePath(dir, profileId, scale === 'quick' ? 'baseline' : 'full-baseline');
}

/**
 * Reads and validates a baseline file. One recorded under the legacy id of its own profile
 * (before the CPU was part of a software adapter's id) is read with the id its recorded machine
 * has today (profile-files.ts withCurrentId), so that it judges runs of that machine only.
 */
export async function readBaseline(path: string): Promise<Baseline> {
  const baseline = await readJsonFile(path, baselineSchema, 'gpu-transfer-perf baseline');
  const disagreement = lacksDisagreement(baseline);
  if (disagreement)
    throw new RecordFileError(
      `${path}: an inconsistent baseline: ${disagreement}; restore it from git, or accept a run again with ${commandLine('baseline', '<run.json>')}`,
    );
  const profile = withCurrentId(baseline.profile);
  if (profile === baseline.profile) return baseline;
  const note = `Read from ${path}, recorded as profile ${baseline.profile.id} (before the CPU was part of the id): judged as ${profile.id}, the id of the machine it records`;
  return { ...baseline, profile, notes: [...baseline.notes, note] };
}

/**
 * Where a baseline's `lacks` and `metrics` disagree, in words, or null: a scenario is in one or
 * the other, once. `gtp baseline` never writes otherwise; a hand edit or a bad merge can, and
 * then compare said "not judged, the baseline lacks it" and "pass" of the same metric.
 */
export function lacksDisagreement(baseline: Pick<Baseline, 'metrics' | 'lacks'>): string | null {
  const held = new Set(baseline.metrics.map((m) => m.scenario));
  const lacked = (baseline.lacks ?? []).map((l) => l.scenario);
  const both = [...new Set(lacked.filter((s) => held.has(s)))];
  if (both.length > 0)
    return `it lacks ${both.join(', ')} and yet holds metrics of ${both.length === 1 ? 'it' : 'them'} (a scenario is in \`lacks\` or in \`metrics\`, not both)`;
  const twice = [...new Set(lacked.filter((s, i) => lacked.indexOf(s) !== i))];
  if (twice.length > 0) return `\`lacks\` names ${twice.join(', ')} more than once`;
  return null;
}

/** Reads the tolerance overrides; none when the file does not exist. */
export async function readToleranceOverrides(path = TOLERANCES_FILE): Promise<ToleranceOverrides> {
  try {
    // lstat only (never blocks): whether it is there; readJsonFile reads only a regular file.
    await lstat(path);
  } catch {
    return {};
  }
  return readJsonFile(path, toleranceOverridesSchema, 'tolerance overrides file', { versioned: false });
}

/** The tolerance a metric is judged with: override, else its kind's default. */
function toleranceFor(id: string, kind: keyof typeof DEFAULT_TOLERANCE, overrides: ToleranceOverrides): number {
  return overrides[id] ?? DEFAULT_TOLERANCE[kind];
}

/**
 * The scenarios of a run that cannot be accepted, and why: those it skipped (their reason) and
 * those whose checks failed (how many errors, the first). An error outside any scenario has no
 * scenario to leave out: refusalReason refuses such a run whole.
 */
export function lackedScenarios(record: RunRecord): SkippedScenario[] {
  const failed = new Map<string, RunRecord['errors']>();
  for (const e of record.errors) failed.set(e.scenario, [...(failed.get(e.scenario) ?? []), e]);
  const failures = [...failed].map(([scenario, errors]) => ({
    scenario,
    reason: `${errors.length} failed check(s) (first: ${errors[0]!.test}: ${errors[0]!.message.split('\n')[0]})`,
  }));
  return [...(record.skipped ?? []).map((s) => ({ scenario: s.scenario, reason: `skipped: ${s.reason}` })), ...failures];
}

/**
 * Turns an accepted run record into a baseline, each metric stamped with its tolerance. The
 * scenarios it lacks (lackedScenarios: skipped, or failed checks) contribute nothing and are
 * named in `lacks`; the rest is accepted.
 */
export function makeBaseline(record: RunRecord, from: string, overrides: ToleranceOverrides, at = new Date().toISOString()): Baseline {
  const lacks = lackedScenarios(record);
  const left = new Set(lacks.map((l) => l.scenario));
  const { skipped: _skipped, ...rest } = record;
  return baselineSchema.parse({
    ...rest,
    metrics: record.metrics.filter((m) => !left.has(m.scenario)).map((m) => ({ ...m, tolerance: toleranceFor(m.id, m.kind, overrides) })),
    ...(record.kernelTables ? { kernelTables: Object.fromEntries(Object.entries(record.kernelTables).filter(([scenario]) => !left.has(scenario))) } : {}),
    errors: [],
    accepted: { from, at },
    ...(lacks.length > 0 ? { lacks } : {}),
  });
}

/**
 * `accepted` over `existing`, scenario by scenario: what the accepted run measured replaces the
 * baseline's; the scenarios it lacks keep the baseline's figures (and leave `lacks` where the
 * baseline has them), so a run that skipped Kinetics keeps Kinetics' accepted figures and a later
 * run that has them fills the gap.
 */
export function acceptOver(existing: Baseline | null, accepted: Baseline): Baseline {
  if (!existing || !accepted.lacks?.length) return accepted;
  const has = new Set(existing.metrics.map((m) => m.scenario));
  const kept = new Set(accepted.lacks.filter((l) => has.has(l.scenario)).map((l) => l.scenario));
  if (kept.size === 0) return accepted;
  const lacks = accepted.lacks.filter((l) => !kept.has(l.scenario));
  const { lacks: _lacks, ...rest } = accepted;
  return baselineSchema.parse({
    ...rest,
    metrics: [...accepted.metrics, ...existing.metrics.filter((m) => kept.has(m.scenario))],
    kernelTables: { ...Object.fromEntries(Object.entries(existing.kernelTables ?? {}).filter(([s]) => kept.has(s))), ...accepted.kernelTables },
    datasets: { ...existing.datasets, ...accepted.datasets },
    notes: [
      ...accepted.notes,
      `Kept from ${existing.accepted.from} (${existing.git.commit ?? 'no commit'}): ${[...kept].join(', ')}, which ${accepted.accepted.from} lacks (${accepted.lacks
        .filter((l) => kept.has(l.scenario))
        .map((l) => `${l.scenario}: ${l.reason}`)
        .join('; ')})`,
    ],
    ...(lacks.length > 0 ? { lacks } : {}),
  });
}

/**
 * The baseline a run is judged against, or null (with the path looked at) when there is none.
 * Without an explicit path: the profile's own file, else the legacy-named file of its kind of
 * setup (`lookup` says which and why). A legacy file of another CPU or core count is returned
 * with that machine's id, so the comparison refuses it as another profile (exit 3) unless a
 * mismatch is allowed, as for any other profile's baseline. With neither, the baseline of the
 * same device recorded on another CPU model (lookupBaselineFile), judged with a host allowance.
 */
export async function findBaseline(
  run: RunRecord,
  explicitPath: string | null,
  dir = BASELINE_DIR,
): Promise<{ path: string; baseline: Baseline | null; lookup: ProfileFileLookup | null }> {
  const read = async (path: string, lookup: ProfileFileLookup | null) => {
    try {
      const baseline = await readBaseline(path);
      // A baseline with no metric (it lacks every scenario) judges nothing: as no baseline at all
      // (exit 3 under PERF_REQUIRE_BASELINE=1, and compare's 3), never a pass of "N new" metrics.
      if (baseline.metrics.length === 0) return { path, baseline: null, lookup };
      // The lookup found the legacy file's profile and CPU to be this run's: it is this profile's baseline.
      const own = lookup?.found === 'legacy' && baseline.profile.id !== run.profile.id;
      return { path, baseline: own ? { ...baseline, profile: { ...baseline.profile, id: run.profile.id } } : baseline, lookup };
    } catch (error) {
      // No default baseline yet is normal; an explicit --baseline that cannot be read is bad input.
      if (lookup && error instanceof RecordFileError && /ENOENT/.test(error.message)) return { path, baseline: null, lookup };
      throw error;
    }
  };
  if (explicitPath !== null) return read(explicitPath, null);
  // Its own file, the legacy-named one, else the same device's on another CPU model (profile-files.ts).
  const lookup = lookupBaselineFile(dir, run.profile.id, run.scale === 'quick' ? 'baseline' : 'full-baseline');
  return read(lookup.found === 'other-machine' ? lookup.legacyPath : lookup.path, lookup);
}

/** What to say when a profile has no baseline yet. */
export function noBaselineMessage(run: RunRecord, path: string, runPath: string): string {
  // The file is there and was read (findBaseline throws on a bad one): it holds no metric.
  if (existsSync(path))
    return `The baseline ${path} holds no metric (it lacks every scenario): nothing compared, as with no baseline. Accept this run with: ${commandLine('baseline', runPath)}`;
  return `No baseline for profile ${run.profile.id} (${run.scale} scale) at ${path}: nothing compared. Accept this run with: ${commandLine('baseline', runPath)}`;
}

/** A run that must not become a baseline; the message says why and what to do. */
export class BaselineRefusedError extends Error {
  override readonly name = 'BaselineRefusedError';
}

/**
 * Why a run cannot be accepted as a baseline over `existing`, or null when it can. A profile's
 * default baseline judges every ordinary run, which reads the embedded data: a run on other
 * data (`--mnist-dir`) may only go to a file named with --baseline (`defaultTargetData` null).
 */
export function refusalReason(
  run: RunRecord,
  existing: Baseline | null,
  allow: { dirty: boolean; partial: boolean },
  defaultTargetData: Readonly<Record<string, string>> | null = null,
): string | null {
  // A failed scenario is left out (lackedScenarios); an error outside every scenario says nothing of which figures to trust.
  const unplaced = run.errors.find((e) => e.scenario === '(run)');
  if (unplaced) return `the run has an error outside any scenario ([${unplaced.scenario}] ${unplaced.message.split('\n')[0]}); fix it and run again`;
  const left = new Set(lackedScenarios(run).map((l) => l.scenario));
  if (!run.metrics.some((m) => !left.has(m.scenario)))
    return `no scenario of the run can be accepted (${lackedScenarios(run)
      .map((l) => `${l.scenario}: ${l.reason}`)
      .join('; ')}); fix them and run again`;
  if (run.git.dirty && !allow.dirty) return 'the run was made from a working tree with uncommitted changes; commit first, or pass --allow-dirty';
  // No commit says even less than a dirty tree of what was measured; it cannot go to the history either.
  if (run.git.commit === null && !allow.dirty)
    return 'the run was made outside a git repository or before its first commit, so no commit says what it measured; commit first and run again, or pass --allow-dirty';
  if (existing && existing.profile.id !== run.profile.id) return `the baseline there is for profile ${existing.profile.id}, the run is ${run.profile.id}`;
  if (existing && existing.scale !== run.scale) return `the baseline there is for the ${existing.scale} scale, the run is ${run.scale}`;
  const otherData = existing ? datasetMismatch(existing.datasets, run.datasets) : defaultTargetData ? datasetMismatch(defaultTargetData, run.datasets) : null;
  if (otherData) {
    return `${otherData.replace('the baseline read', existing ? 'the baseline there read' : 'ordinary runs read')}; every ordinary run would then be refused (exit 3). Keep it apart with --baseline FILE`;
  }
  if (!allow.partial) {
    // A run that skipped scenarios for a missing tool chose nothing itself: its selection is what could run.
    if (run.selection !== null && !run.skipped?.length)
      return `the run covers only ${run.selection.join(', ')}; accept a run of every scenario, or pass --allow-partial`;
    // Metrics of a scenario the run lacks (skipped or failed) are kept from the baseline (acceptOver), not lost.
    const lost = existing?.metrics.filter((m) => !left.has(m.scenario) && !run.metrics.some((r) => r.id === m.id)).map((m) => m.id) ?? [];
    if (lost.length > 0)
      return `the run lacks ${lost.length} metric(s) of the current baseline (${lost.slice(0, 3).join(', ')}${lost.length > 3 ? ', ...' : ''}); pass --allow-partial to drop them`;
  }
  return null;
}

/**
 * `existing` with the metrics (and kernel tables) of `update` put in place of theirs; the rest
 * of `existing` stays, including its run-level fields. Notes which run each part came from.
 */
export function mergeBaselines(existing: Baseline, update: Baseline): Baseline {
  const replaced = new Set(update.metrics.map((m) => m.id));
  return baselineSchema.parse({
    ...existing,
    metrics: [...existing.metrics.filter((m) => !replaced.has(m.id)), ...update.metrics],
    kernelTables: { ...existing.kernelTables, ...update.kernelTables },
    // What the update's metrics were measured on: without it, Kinetics merged into a baseline that
    // described only MNIST and COCO judged a run on the user's own clips against the fixture's figures.
    datasets: { ...existing.datasets, ...update.datasets },
    notes: [
      ...existing.notes.filter((n) => !n.startsWith('Merged: ')),
      `Merged: ${update.metrics.length} metric(s) from ${update.accepted.from} (${update.git.commit ?? 'no commit'}) at ${update.accepted.at}`,
    ],
    diagnostics: [...(existing.diagnostics ?? []), ...(update.diagnostics ?? [])],
    // A scenario the update measured is no longer lacking.
    lacks: (existing.lacks ?? []).filter((l) => !update.metrics.some((m) => m.scenario === l.scenario)),
  });
}
