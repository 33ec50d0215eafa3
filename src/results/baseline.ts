import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { metricList, metricSchema, runRecordSchema, type RunRecord } from './schema.js';
import { RecordFileError, readJsonFile } from './storage.js';
import { DEFAULT_TOLERANCE } from './verdict.js';
import { commandLine } from '../base/commands.js';
import { lookupBaselineFile, profileFilePath, withCurrentId, type ProfileFileLookup } from './profile-files.js';

/** A baseline: an accepted run record whose metrics each carry the tolerance they are judged with. */
export const baselineSchema = runRecordSchema.extend({
  // extend keeps metricSchema's plausibility checks; metricList adds the unique-id check.
  metrics: metricList(metricSchema.extend({ tolerance: z.number().min(0) }).strict()),
  /** Which run was accepted, and when. */
  accepted: z.object({ from: z.string(), at: z.iso.datetime() }).strict(),
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
  const profile = withCurrentId(baseline.profile);
  if (profile === baseline.profile) return baseline;
  const note = `Read from ${path}, recorded as profile ${baseline.profile.id} (before the CPU was part of the id): judged as ${profile.id}, the id of the machine it records`;
  return { ...baseline, profile, notes: [...baseline.notes, note] };
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

/** Turns an accepted run record into a baseline, each metric stamped with its tolerance. */
export function makeBaseline(record: RunRecord, from: string, overrides: ToleranceOverrides, at = new Date().toISOString()): Baseline {
  return baselineSchema.parse({
    ...record,
    metrics: record.metrics.map((m) => ({ ...m, tolerance: toleranceFor(m.id, m.kind, overrides) })),
    accepted: { from, at },
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
  if (run.errors.length > 0)
    return `the run has ${run.errors.length} error(s) (first: [${run.errors[0]!.scenario}] ${run.errors[0]!.message.split('\n')[0]}); fix them and run again`;
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
    if (run.selection !== null) return `the run covers only ${run.selection.join(', ')}; accept a run of every scenario, or pass --allow-partial`;
    const lost = existing?.metrics.filter((m) => !run.metrics.some((r) => r.id === m.id)).map((m) => m.id) ?? [];
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
    notes: [
      ...existing.notes.filter((n) => !n.startsWith('Merged: ')),
      `Merged: ${update.metrics.length} metric(s) from ${update.accepted.from} (${update.git.commit ?? 'no commit'}) at ${update.accepted.at}`,
    ],
    diagnostics: [...(existing.diagnostics ?? []), ...(update.diagnostics ?? [])],
  });
}
