#!/usr/bin/env node
import { BackendUnavailableError } from '../backend/errors.js';
import { BaselineRefusedError } from '../results/baseline.js';
import { FileWriteError, RecordFileError } from '../results/storage.js';
import { HistoryRefusedError } from '../history/store.js';
import { RunInputError } from '../runner/run-input-error.js';
import { ProcessLostError } from '../runner/process-lost.js';
import { commandOf, helpText, parseCommandLine, tempFolderProblem, usageHint, UsageError, withLongValuesCut } from './args.js';
import { runCommand } from './commands.js';
import { moveConsoleToStderr, OutputPathError } from '../results/output-guard.js';
import { outputStream } from '../base/regular-file.js';
import { EXIT } from '../results/exit.js';
import { handleStandardStreams, stdoutClosedAtStart } from '../base/standard-streams.js';
import { passSignalsToChildren, stopWhenOrphaned } from './signal-children.js';

/**
 * The outputs of the parsed command line (--json, --markdown, --out, --write-envelope, the export
 * flags) that name stdout (`-`, /dev/stdout, /dev/fd/1): each as `--flag value`.
 */
function stdoutOutputs(args: object): string[] {
  const a = args as { json?: unknown; markdown?: unknown; out?: unknown; writeEnvelope?: unknown; exports?: Readonly<Record<string, unknown>> };
  const named: Array<[string, unknown]> = [
    ['--json', a.json],
    ['--markdown', a.markdown],
    ['--out', a.out],
    ['--write-envelope', a.writeEnvelope],
    ...Object.entries(a.exports ?? {}).map(([flag, v]): [string, unknown] => [`--${flag}`, v]),
  ];
  // An export flag shares its name with --json/--markdown on some commands: each flag once.
  const seen = new Set<string>();
  return named.flatMap(([flag, v]) => {
    if (typeof v !== 'string' || outputStream(v) !== 'stdout' || seen.has(flag)) return [];
    seen.add(flag);
    return [`${flag} ${v}`];
  });
}

/** Runs one command line through the registry (src/cli/commands.ts); `--help` prints that command's help, or the list of commands. */
async function main(argv: readonly string[]): Promise<number> {
  // A bare `gtp` lists the commands and measures nothing (it used to start every perf file);
  // `npm run perf` names perf, the main job (issue 41, item 7).
  if (argv.length === 0) {
    console.error(`error: no command given\n${helpText(null)}`);
    return EXIT.badInput;
  }
  try {
    const args = parseCommandLine(argv);
    if (args.command === 'help') {
      console.log(helpText(args.topic));
      return EXIT.pass;
    }
    // Every command makes a temp folder (or a library it runs does): a TMPDIR that cannot hold one is said now, in one line (issue 51).
    const noTemp = tempFolderProblem();
    if (noTemp) {
      console.error(`error: ${noTemp}`);
      return EXIT.badInput;
    }
    // One stream, one output: two outputs on stdout would make one corrupt stream (issue 41, item 3).
    const onStdout = stdoutOutputs(args);
    if (onStdout.length > 1) {
      const [first, second] = onStdout as [string, string];
      throw new OutputPathError(`${second} is also ${first.split(' ')[0]} (both stdout): give each output its own file`);
    }
    // `--json - >&-`: the output would go nowhere (Node put /dev/null on the closed fd): one line, exit 2, before anything runs.
    if (onStdout.length > 0 && stdoutClosedAtStart())
      throw new OutputPathError(
        `${onStdout[0]}: stdout is closed (EBADF), so the output would go nowhere; send stdout somewhere (e.g. > out.json), or name a file`,
      );
    // `--json - | jq .`: stdout holds only that output; the lines for a person go to stderr (docs/usage.md, "Where output goes").
    if (onStdout.length > 0) moveConsoleToStderr();
    return await runCommand(args);
  } catch (error) {
    // The cause in one line and where that command's flags are listed (as typed where it runs); the help only on --help.
    if (error instanceof UsageError) {
      console.error(`error: ${withLongValuesCut(error.message)}\n${usageHint(commandOf(argv))}`);
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
      console.error(`error: ${withLongValuesCut(error.message)}`);
      return EXIT.badInput;
    }
    // A measuring process that ended without its values (a browser that crashed, a page that hung): said, nothing written.
    if (error instanceof ProcessLostError) {
      console.error(`error: ${error.message}`);
      return EXIT.regression;
    }
    if (error instanceof BackendUnavailableError) {
      console.error(`error: the backend did not start: ${error.message}`);
      return EXIT.badInput;
    }
    throw error;
  }
}

// A closed pipe or a full stdout ends every command the same way (src/base/standard-streams.ts).
handleStandardStreams();
// A signal to this process ends its children too: nothing measures or writes after it (src/cli/signal-children.ts).
passSignalsToChildren();
// ...and so does the death of the npx or npm that started it (issue 51).
stopWhenOrphaned();
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
