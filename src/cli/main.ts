#!/usr/bin/env node
import { parsePerfArgs, USAGE, UsageError } from './args.js';
import { runDoctor } from './doctor.js';
import { runPerf } from './perf.js';

/** Entry point of `npm run perf` and `npm run doctor`. */
async function main(argv: readonly string[]): Promise<number> {
  const args = parsePerfArgs(argv);
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  return args.command === 'doctor' ? runDoctor(args) : runPerf(args);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`error: ${error.message}\n\n${USAGE}`);
      process.exitCode = 2;
    } else {
      console.error(error);
      process.exitCode = 1;
    }
  },
);
