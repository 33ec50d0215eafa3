#!/usr/bin/env node
import { BackendUnavailableError } from '../backend/errors.js';
import { BaselineRefusedError } from '../results/baseline.js';
import { FileWriteError, RecordFileError } from '../results/storage.js';
import { HistoryRefusedError } from '../history/store.js';
import { RunInputError } from '../runner/perf.js';
import { parseCommandLine, USAGE, UsageError, type CommandLine } from './args.js';
import { abCommand } from './ab.js';
import { bisectCommand } from './bisect.js';
import { OutputPathError } from '../results/output-guard.js';
import { baselineCommand } from './baseline.js';
import { calibrateCommand } from './calibrate.js';
import { compareCommand } from './compare.js';
import { historyCommand } from './history.js';
import { runDoctor } from './doctor.js';
import { perfCommand } from './perf.js';
import { reportCommand } from './report.js';
import { EXIT } from '../results/exit.js';
import { commandLine } from '../base/commands.js';

/** Runs one command of `npm run perf`, `perf:compare`, `perf:baseline`, `perf:calibrate`, `perf:history`, `doctor`. */
async function dispatch(args: CommandLine): Promise<number> {
  switch (args.command) {
    case 'help':
      console.log(USAGE);
      return EXIT.pass;
    case 'perf':
      return perfCommand(args);
    case 'doctor':
      return runDoctor(args);
    case 'report':
      return reportCommand(args);
    case 'calibrate':
      return calibrateCommand(args);
    case 'compare':
      return compareCommand(args);
    case 'baseline':
      return baselineCommand(args);
    case 'ab':
      return abCommand(args);
    case 'bisect':
      return bisectCommand(args);
    case 'history':
      return historyCommand(args);
  }
}

// Named as the command is typed where it runs: an npm script here, the bin in a user's project.
const HINT = `Run \`${commandLine('perf', '--help')}\` for the commands and options.`;

async function main(argv: readonly string[]): Promise<number> {
  try {
    return await dispatch(parseCommandLine(argv));
  } catch (error) {
    // The cause in one line and where to look next; the full usage only on --help.
    if (error instanceof UsageError) {
      console.error(`error: ${error.message}\n${HINT}`);
      return EXIT.badInput;
    }
    // Bad files and refused baselines are the user's input to fix: exit 2, nothing written.
    // Output paths that must not or cannot be written are found up front (OutputPathError) or, on a full disk, at the write.
    if (
      error instanceof RecordFileError ||
      error instanceof BaselineRefusedError ||
      error instanceof RunInputError ||
      error instanceof OutputPathError ||
      error instanceof FileWriteError ||
      error instanceof HistoryRefusedError
    ) {
      console.error(`error: ${error.message}`);
      return EXIT.badInput;
    }
    if (error instanceof BackendUnavailableError) {
      console.error(`error: the backend did not start: ${error.message}`);
      return EXIT.badInput;
    }
    throw error;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // Not the user's input: a defect or an environment failure; keep the stack for a bug report.
    console.error(error);
    process.exitCode = EXIT.regression;
  },
);
