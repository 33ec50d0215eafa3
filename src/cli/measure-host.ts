#!/usr/bin/env node
/**
 * The measure host of perf:ab and perf:bisect (src/runner/measure-host.ts): started once per
 * checkout with perf's flags, it measures the selected scenarios in a new process per request.
 * Not a user command; it takes no output flags (each request names its record file).
 */
import { serveMeasurements } from '../runner/measure-host.js';
import { describeDatasets, scenarioFiles } from '../runner/perf.js';
import { parseCommandLine } from './args.js';

const args = parseCommandLine(['perf', ...process.argv.slice(2)]);
if (args.command !== 'perf') throw new Error('the measure host takes perf flags');
const files = scenarioFiles(args.scenarios, args.dir ?? undefined);
const { data } = args;
await serveMeasurements(files, {
  backend: args.backend,
  requireBackend: args.requireBackend,
  scale: args.scale,
  data,
  selection: args.scenarios.length > 0 ? files.map((f) => f.path) : null,
  datasets: await describeDatasets(data, files),
});
