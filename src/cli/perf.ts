import { existsSync } from 'node:fs';
import { startVitest } from 'vitest/node';
import { loadMnistDir } from '../data/mnist-dir.js';
import { renderRunReport } from '../report/console.js';
import { RunRecordReporter } from '../results/reporter.js';
import { defaultRecordPath, writeJsonAtomic } from '../results/storage.js';
import { runConfigToEnv } from '../run-config.js';
import { listScenarios, selectScenarios } from '../suite/scenarios.js';
import { UsageError, type PerfArgs } from './args.js';

/**
 * `npm run perf`: runs the selected perf/ specs and benches in one vitest process (one
 * device), then writes the run record and prints the report. Returns the exit code.
 */
export async function runPerf(args: PerfArgs): Promise<number> {
  let files;
  try {
    files = selectScenarios(listScenarios(), args.scenarios);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (args.mnistDir) {
    // Fail before starting a device: a bad data folder is the user's to fix (exit 2).
    try {
      await loadMnistDir(args.mnistDir);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  Object.assign(
    process.env,
    runConfigToEnv({ backend: args.backend, requireBackend: args.requireBackend, scale: args.scale, mnistDir: args.mnistDir }),
  );
  const reporter = new RunRecordReporter(args.scale);
  const vitest = await startVitest('test', files.map((f) => f.path), { run: true, watch: false }, {
    test: {
      include: ['perf/**/*.spec.ts', 'perf/**/*.bench.ts'],
      reporters: ['default', reporter],
    },
  });
  await vitest.close();

  const record = reporter.record;
  if (!record) {
    console.error('\nNo run record: no scenario reached a backend (see the errors above).');
    return 1;
  }
  const path = args.out ?? defaultRecordPath(record);
  if (args.out && existsSync(args.out)) console.warn(`Replacing ${args.out}.`);
  await writeJsonAtomic(path, record);
  console.log(`\n${renderRunReport(record, path)}`);
  return record.errors.length > 0 ? 1 : 0;
}
