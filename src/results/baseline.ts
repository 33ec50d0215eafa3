import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { metricSchema, runRecordSchema, type RunRecord } from './schema.js';
import { readJsonFile } from './storage.js';
import { DEFAULT_TOLERANCE } from './verdict.js';

/** A baseline: an accepted run record whose metrics each carry the tolerance they are judged with. */
export const baselineSchema = runRecordSchema.extend({
  metrics: z.array(metricSchema.extend({ tolerance: z.number().min(0) }).strict()),
  /** Which run was accepted, and when. */
  accepted: z.object({ from: z.string(), at: z.iso.datetime() }).strict(),
});
export type Baseline = z.infer<typeof baselineSchema>;

/** Per-metric tolerance overrides, checked in as baselines/tolerances.json: { "<metric id>": 0.15 }. */
export const toleranceOverridesSchema = z.record(z.string().regex(/^[a-z0-9][a-z0-9.-]*$/), z.number().min(0));
export type ToleranceOverrides = z.infer<typeof toleranceOverridesSchema>;

export const BASELINE_DIR = 'baselines';
export const TOLERANCES_FILE = join(BASELINE_DIR, 'tolerances.json');

/** Where the baseline of a profile lives: quick scale at <id>.json, full scale at <id>.full.json. */
export function baselinePathFor(profileId: string, scale: RunRecord['scale'], dir = BASELINE_DIR): string {
  return join(dir, scale === 'quick' ? `${profileId}.json` : `${profileId}.full.json`);
}

/** Reads and validates a baseline file. */
export async function readBaseline(path: string): Promise<Baseline> {
  return readJsonFile(path, baselineSchema, 'gpu-transfer-perf baseline');
}

/** Reads the tolerance overrides; none when the file does not exist. */
export async function readToleranceOverrides(path = TOLERANCES_FILE): Promise<ToleranceOverrides> {
  try {
    await readFile(path);
  } catch {
    return {};
  }
  return readJsonFile(path, toleranceOverridesSchema, 'tolerance overrides file');
}

/** The tolerance a metric is judged with: override, else its kind's default. */
export function toleranceFor(id: string, kind: keyof typeof DEFAULT_TOLERANCE, overrides: ToleranceOverrides): number {
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
