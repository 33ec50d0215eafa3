#!/usr/bin/env node
/**
 * The measure host of perf:ab and perf:bisect (src/runner/measure-host.ts): started once per
 * checkout with perf's flags, it measures the selected scenarios in a new process per request.
 * Not a user command; it takes no output flags (each request names its record file).
 */
import { serveMeasurements } from '../runner/measure-host.js';
import { describeDatasets, scenarioFiles } from '../runner/perf.js';
import { sourceContext } from '../run-config.js';
import { parseCommandLine } from './args.js';
import { perfRunConfig } from './perf.js';
import { planPerf } from './perf/plan.js';

const args = parseCommandLine(['perf', ...process.argv.slice(2)]);
if (args.command !== 'perf') throw new Error('the measure host takes perf flags');
if (args.browser !== null) {
  // In a browser, what `perf --browser` with these flags would measure, planned as it plans it
  // (its browser found, perf/browser/ or perf/, the data described): one launch per request.
  const plan = await planPerf(args, { checkOutputs: false });
  await serveMeasurements(plan.files, plan.config, plan.browser);
} else {
  const files = scenarioFiles(args.scenarios, args.dir ?? undefined, undefined, args.dir ? '--dir' : null);
  await serveMeasurements(files, perfRunConfig(args, files, await describeDatasets(args.data, files, sourceContext(args))));
}
