import { copyFile, readFile } from 'node:fs/promises';
import { diffString } from 'json-diff';
import { BaselineRefusedError, baselinePathFor, makeBaseline, readBaseline, readToleranceOverrides, refusalReason, type Baseline } from '../results/baseline.js';
import { latestRecordPath, readRunRecord, writeJsonAtomic } from '../results/storage.js';
import { UsageError } from './args.js';

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
export async function baselineCommand(args: { run: string | null; target: string | null; allowDirty: boolean; allowPartial: boolean }): Promise<number> {
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
