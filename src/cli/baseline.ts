import { copyFile, readFile } from 'node:fs/promises';
import { diffString } from 'json-diff';
import { baselinePathFor, makeBaseline, readBaseline, readToleranceOverrides, type Baseline } from '../results/baseline.js';
import type { RunRecord } from '../results/schema.js';
import { latestRecordPath, readRunRecord, writeJsonAtomic } from '../results/storage.js';
import { UsageError } from './args.js';

/** A run that must not become a baseline; the message says why and what to do. */
export class BaselineRefusedError extends Error {
  override readonly name = 'BaselineRefusedError';
}

/** Why a run cannot be accepted as a baseline at `target`, or null when it can. */
export function refusalReason(run: RunRecord, existing: Baseline | null, allow: { dirty: boolean; partial: boolean }): string | null {
  if (run.errors.length > 0) return `the run has ${run.errors.length} error(s) (first: [${run.errors[0]!.scenario}] ${run.errors[0]!.message.split('\n')[0]}); fix them and run again`;
  if (run.git.dirty && !allow.dirty) return 'the run was made from a working tree with uncommitted changes; commit first, or pass --allow-dirty';
  if (existing && existing.profile.id !== run.profile.id) return `the baseline there is for profile ${existing.profile.id}, the run is ${run.profile.id}`;
  if (existing && existing.scale !== run.scale) return `the baseline there is for the ${existing.scale} scale, the run is ${run.scale}`;
  if (!allow.partial) {
    if (run.selection !== null) return `the run covers only ${run.selection.join(', ')}; accept a run of every scenario, or pass --allow-partial`;
    const lost = existing?.metrics.filter((m) => !run.metrics.some((r) => r.id === m.id)).map((m) => m.id) ?? [];
    if (lost.length > 0) return `the run lacks ${lost.length} metric(s) of the current baseline (${lost.slice(0, 3).join(', ')}${lost.length > 3 ? ', ...' : ''}); pass --allow-partial to drop them`;
  }
  return null;
}

/** What accepting the run changes, metric values only: a json-diff, or '' when nothing changed. */
function valueDiff(existing: Baseline | null, next: Baseline): string {
  const values = (b: Baseline | null) => Object.fromEntries((b?.metrics ?? []).map((m) => [m.id, m.ci ? { value: m.value, ci: m.ci } : m.value]));
  return diffString(values(existing), values(next), { color: process.stdout.isTTY === true, precision: 4 });
}

/**
 * `npm run perf:baseline`: accepts a run as its profile's baseline. Refuses runs with errors,
 * from a dirty tree, of another profile or scale, or of only some scenarios; shows the change;
 * keeps the previous baseline as <file>.prev; writes atomically.
 */
export async function runBaseline(args: { run: string | null; target: string | null; allowDirty: boolean; allowPartial: boolean }): Promise<number> {
  const runPath = args.run ?? (await latestRecordPath());
  if (!runPath) throw new UsageError('no run record given and none in results/: run `npm run perf` first');
  const run = await readRunRecord(runPath);
  const target = args.target ?? baselinePathFor(run.profile.id, run.scale);
  let existing: Baseline | null = null;
  try {
    await readFile(target);
    existing = await readBaseline(target); // a corrupt existing baseline stops here, untouched
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const refusal = refusalReason(run, existing, { dirty: args.allowDirty, partial: args.allowPartial });
  if (refusal) throw new BaselineRefusedError(`not accepting ${runPath} as ${target}: ${refusal}`);
  const next = makeBaseline(run, runPath, await readToleranceOverrides());
  const diff = valueDiff(existing, next);
  console.log(existing ? `Changes to ${target}:\n${diff || '(no metric value changed)'}` : `New baseline ${target} for profile ${run.profile.id} (${run.scale}).`);
  if (existing) await copyFile(target, `${target}.prev`);
  await writeJsonAtomic(target, next);
  console.log(`Wrote ${target}${existing ? ` (previous kept as ${target}.prev)` : ''}.`);
  return 0;
}
