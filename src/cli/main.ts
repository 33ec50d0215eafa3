#!/usr/bin/env node
import { RecordFileError } from '../results/storage.js';
import { parseCommandLine, USAGE, UsageError, type CommandLine } from './args.js';
import { BaselineRefusedError, runBaseline } from './baseline.js';
import { runCalibrate } from './calibrate.js';
import { runCompare } from './compare.js';
import { runDoctor } from './doctor.js';
import { runPerf } from './perf.js';

/** Runs one command of `npm run perf`, `perf:compare`, `perf:baseline`, `perf:calibrate`, `doctor`. */
async function dispatch(args: CommandLine): Promise<number> {
  switch (args.command) {
    case 'help':
      console.log(USAGE);
      return 0;
    case 'perf':
      return runPerf(args);
    case 'doctor':
      return runDoctor(args);
    case 'calibrate':
      return runCalibrate(args);
    case 'compare':
      return runCompare(args);
    case 'baseline':
      return runBaseline(args);
  }
}

async function main(argv: readonly string[]): Promise<number> {
  try {
    return await dispatch(parseCommandLine(argv));
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`error: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    // Bad files and refused baselines are the user's input to fix: exit 2, nothing written.
    if (error instanceof RecordFileError || error instanceof BaselineRefusedError) {
      console.error(`error: ${error.message}`);
      return 2;
    }
    throw error;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
