/**
 * The commands of the CLI (`gtp <command>`; this repository's npm scripts), one line each. A
 * command is its own file, src/cli/<name>.ts, exporting a CommandSpec (src/cli/args.ts): its
 * flags and help, its parse step and its runner. A new command is that file and one line here
 * (and, in this repository, its npm script in package.json and src/base/commands.ts).
 *
 * Loaded by every `vitest run` (args.ts, through the preset), so a command file imports only
 * light modules at its top and its heavy ones (runners, report renderers, backends) in its runner.
 */
import type { CommandSpec } from './command-spec.js';
import { abSpec } from './ab.js';
import { baselineSpec } from './baseline.js';
import { bisectSpec } from './bisect.js';
import { calibrateSpec } from './calibrate.js';
import { compareSpec } from './compare.js';
import { doctorSpec } from './doctor.js';
import { historySpec } from './history.js';
import { perfSpec } from './perf.js';
import { reportSpec } from './report.js';

/** Every command, in the order `gtp --help` lists them; the first is the default (`gtp` alone is `gtp perf`). */
export const COMMANDS = [perfSpec, doctorSpec, compareSpec, baselineSpec, calibrateSpec, reportSpec, abSpec, bisectSpec, historySpec] as const;

/** A registered command's arguments, by its spec. */
type ArgsOf<S> = S extends CommandSpec<infer A> ? A : never;

/** The arguments of any registered command (CommandLine without help). */
export type CommandArgs = ArgsOf<(typeof COMMANDS)[number]>;

/** Any registered command's spec, as the parser and the help see it (its own Args type aside). */
export type AnyCommandSpec = (typeof COMMANDS)[number];

/** Runs a parsed command line through its command's runner; resolves to the exit code. */
export function runCommand(args: CommandArgs): Promise<number> {
  const spec = COMMANDS.find((c) => c.name === args.command)!;
  // The spec found is the one whose parse step made `args`: its runner takes them.
  return (spec.run as (a: CommandArgs) => Promise<number>)(args);
}
