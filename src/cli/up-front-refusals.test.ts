import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempFolder } from '../../test/support/temp-folder.js';
import { OutputPathError } from '../results/output-guard.js';
import { DEFAULT_PROCESS_ALPHA, processCountProblem } from '../results/process-verdict.js';
import { nothingToJudgeReason } from '../runner/ab.js';
import { RunInputError } from '../runner/run-input-error.js';
import { type CommandLine, countOf, helpText, parseCommandLine, UsageError } from './args.js';
import { CALIBRATE_MIN_PER_ARM, CALIBRATE_MIN_PER_CONDITION, calibrateProcesses } from './calibrate.js';
import type { ParsedLine } from './command-spec.js';
import { planPerf } from './perf/plan.js';

// Issue 34: refusals made before anything runs, each one line (exit 2 through the CLI: the
// e2e cases are src/cli/exit-codes.e2e.test.ts), and help that names the minimum it enforces.

const parse = (argv: string[]): CommandLine => parseCommandLine(argv, {});
/** The --processes entry of a command's help, its continuation lines joined. */
const processesHelp = (command: 'perf' | 'ab' | 'bisect' | 'calibrate' | 'doctor') => {
  const help = helpText(command, false);
  const from = help.indexOf('  --processes');
  const next = help.slice(from + 2).search(/\n {2}-/);
  return help.slice(from, from + 2 + next).replace(/\s+/g, ' ');
};
/** A parsed line holding only --processes (what calibrateProcesses reads), checked by the parser's own count check. */
const line = (k: string | null): Pick<ParsedLine, 'str' | 'count'> => ({
  str: () => k,
  count: (name, fallback, range) => (k === null ? fallback : countOf(name, k, range)),
});
/** The refusal a command line gets (one line), or null when it parses. */
const refusalOf = (argv: string[]): string | null => {
  try {
    parse(argv);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
};

describe('--processes: the minimum of each command is in its --help, and enforced', () => {
  it('perf: 1, else at least 6 (the fewest whose permutation test can reach alpha)', () => {
    expect(processesHelp('perf')).toContain('(default 1; else at least 6,');
    expect(processesHelp('perf')).toContain('at most 200');
    expect([1, 6, 8].map((k) => processCountProblem(k))).toEqual([null, null, null]);
    expect(processCountProblem(5)).toMatch(/^--processes 5: .*use --processes 6 or more/);
  });

  it('ab and bisect: at least 6 per arm', () => {
    for (const command of ['ab', 'bisect'] as const) {
      expect(processesHelp(command)).toContain('at least 6, the fewest that can decide at the first look');
      expect(processesHelp(command)).toContain('at most 200');
    }
    expect(processCountProblem(6, DEFAULT_PROCESS_ALPHA, false)).toBeNull();
    for (const k of [1, 5]) expect(processCountProblem(k, DEFAULT_PROCESS_ALPHA, false)).toMatch(/use --processes 6 or more/);
  });

  // Issue 51: `ab --processes 0` said "from 1 to 200", then 1 was refused ("6 or more"). Every
  // value outside the range now gets the same line, which states the real bounds once.
  it('ab and bisect: every value outside 6 to 200 gets the one line that states the range', () => {
    const range =
      "--processes must be a whole number from 6 to 200 (fewer than 6 + 6 per-process values cannot reach p < 0.005 in an exact permutation test; 8 recommended), got '";
    for (const command of [
      ['ab', '--base', 'HEAD~1'],
      ['bisect', '--good', 'HEAD~1', '--bad', 'HEAD'],
    ]) {
      for (const k of ['0', '1', '5', '201', '-1', '6.5', 'x']) expect(refusalOf([...command, `--processes=${k}`])).toBe(`${range}${k}'`);
      for (const k of ['6', '200']) expect(refusalOf([...command, '--processes', k])).toBeNull();
    }
  });

  it('perf: every value outside 1 and 6 to 200 gets the one line that states both', () => {
    const range =
      "--processes must be 1 (one process, judged with a prediction interval) or a whole number from 6 to 200 (fewer than 6 + 6 per-process values cannot reach p < 0.005 in an exact permutation test; 8 recommended), got '";
    for (const k of ['0', '2', '5', '201']) expect(refusalOf(['perf', '--processes', k])).toBe(`${range}${k}'`);
    for (const k of [1, 6, 200]) expect(parse(['perf', '--processes', String(k)])).toMatchObject({ processes: k });
  });

  it('calibrate: 32 per condition here, 3 per arm of an A/A (--scenario, or in your project)', () => {
    const help = processesHelp('calibrate');
    expect(help).toContain(`at least ${CALIBRATE_MIN_PER_CONDITION}`);
    expect(help).toContain(`at least ${CALIBRATE_MIN_PER_ARM}`);
    expect(calibrateProcesses(line(null), [], true)).toBeNull();
    expect(calibrateProcesses(line('32'), [], true)).toBe(32);
    const perCondition = (k: string) =>
      `--processes must be a whole number from 32 to 200 (processes per condition: two looks of 8 + 8 per arm, drawn without replacement; default 60), got '${k}'`;
    for (const k of ['0', '1', '31', '201']) expect(() => calibrateProcesses(line(k), [], true)).toThrow(perCondition(k));
    expect(calibrateProcesses(line('3'), ['dtypes'], true)).toBe(3);
    expect(calibrateProcesses(line('3'), [], false)).toBe(3);
    for (const k of ['0', '2'])
      expect(() => calibrateProcesses(line(k), [], false)).toThrow(
        `--processes must be a whole number from 3 to 200 (processes per arm of the A/A: a spread needs three values; default 20), got '${k}'`,
      );
    // Through the parser, here (the sources): a RangeError with its stack before; a UsageError now, the same line for 0 and 31.
    expect(refusalOf(['calibrate', '--processes', '0'])).toBe(perCondition('0'));
    expect(refusalOf(['calibrate', '--processes', '31'])).toBe(perCondition('31'));
  });

  it('doctor --write-envelope: 1 to 200', () => {
    expect(processesHelp('doctor')).toContain('(default 8; 1 to 200)');
    expect(parse(['doctor', '--processes', '1'])).toMatchObject({ processes: 1 });
    expect(() => parse(['doctor', '--processes', '0'])).toThrow('--processes must be a whole number from 1 to 200');
  });
});

describe('a flag given without the one it needs names the combination that works', () => {
  const refusal = (argv: string[]): string => {
    try {
      parse(['perf', ...argv]);
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error(`accepted: ${argv.join(' ')}`);
  };
  /** The question flag and value the message names, as typed: '--shape NxHxWxC' -> a shape that parses. */
  const EXAMPLE: Record<string, string> = { '--shape': '2x8x8x3', '--image-folder': 'photos' };

  it.each([
    ['--max-pixels', '1000', '--image-folder'],
    ['--size', '8x8', '--image-folder'],
    ['--fit', 'letterbox', '--image-folder'],
    ['--resample', 'bilinear-no-antialias', '--image-folder'],
    ['--dtype', 'uint8', '--shape'],
  ])('%s alone names %s only, and that combination parses (the other is refused)', (flag, value, needs) => {
    const alone = refusal([flag, value]);
    expect(alone).toMatch(new RegExp(`^${flag} goes with ${needs} \\S+ only`));
    expect(() => parse(['perf', needs, EXAMPLE[needs]!, flag, value])).not.toThrow();
    const other = needs === '--shape' ? '--image-folder' : '--shape';
    expect(refusal([other, EXAMPLE[other]!, flag, value])).toMatch(new RegExp(`^${flag} goes with ${needs}`));
  });

  it.each([
    ['--batch', '4'],
    ['--mean', '1,2,3', '--std', '4,5,6'],
  ])('%s alone names both questions, and each parses', (...argv) => {
    expect(refusal(argv)).toMatch(new RegExp(`^${argv[0]} goes with --shape NxHxWxC.* or --image-folder DIR`));
    for (const q of ['--shape', '--image-folder']) expect(() => parse(['perf', q, EXAMPLE[q]!, ...argv])).not.toThrow();
  });
});

describe('a flag naming a folder to read must name one that exists', () => {
  it.each([
    ['perf', '--baselines'],
    ['compare', '--baselines'],
    ['report', '--baselines'],
  ])('%s %s: a missing folder is a usage error naming it; a file is not a folder', (command, flag) => {
    expect(() => parse([command, flag, '/no/such/baselines'])).toThrow(
      new UsageError(`${flag} /no/such/baselines: no such folder (/no/such/baselines); name an existing folder`),
    );
    expect(() => parse([command, flag, 'package.json'])).toThrow(`${flag} package.json: not a folder`);
    expect(parse([command, flag, 'baselines'])).toMatchObject({ baselines: 'baselines' });
  });

  it('the default folder may be missing (a project with no baseline yet), and a folder the command writes is created', () => {
    expect(parse(['perf'])).toMatchObject({ baselines: 'baselines' });
    expect(parse(['baseline', '--baselines', '/no/such/new-folder'])).toMatchObject({ baselines: '/no/such/new-folder' });
  });
});

describe('an A/B of scenarios known to record nothing it judges is refused before any checkout', () => {
  // Known from this repository's baselines/ (what each scenario recorded), read from the project root.
  it('names the scenario, the baseline that shows it, and scenarios that would be judged', async () => {
    const refusal = await nothingToJudgeReason({ scenarios: ['1'] });
    expect(refusal).toMatch(
      /^perf:ab: the scenario mnist-loader records no ratio or time metric \(baselines\/[^)]+\.json lists its metrics\), so an A\/B has nothing to judge;/,
    );
    expect(refusal).toMatch(/; name a scenario that records one \(.*speedup/);
    expect(await nothingToJudgeReason({ scenarios: ['1'], command: 'bisect' })).toMatch(/^perf:bisect: .*so no probe has anything to judge;/);
  });

  it('judges by the kinds asked: a time-only scenario is refused with --ratios-only, not without', async () => {
    expect(await nothingToJudgeReason({ scenarios: ['cpu-normalize-profile'], kinds: ['ratio'] })).toMatch(/records no ratio metric/);
    expect(await nothingToJudgeReason({ scenarios: ['cpu-normalize-profile'], kinds: ['ratio', 'time'] })).toBeNull();
  });

  it('lets through what records a ratio, and what no baseline covers (measured; nothing judged is then exit 3)', async () => {
    expect(await nothingToJudgeReason({ scenarios: ['speedup'] })).toBeNull();
    expect(await nothingToJudgeReason({ scenarios: ['1', 'speedup'] })).toBeNull();
    expect(await nothingToJudgeReason({ scenarios: ['1'] }, 'no-such-baselines-folder')).toBeNull();
  });
});

// Issue 51: `perf --dir LOOP` (a symbolic link to itself) printed `Error: ELOOP ...`, naming no
// flag. Every path flag's check says the cause in words, in one line naming the flag and the path.
describe('a symbolic-link loop named by a path flag: one line naming the flag, the path and the cause', () => {
  const temp = tempFolder('gtp-loop-');
  const LOOP = 'ELOOP: a symbolic link in the path loops';
  const loop = () => temp.at('loop');
  beforeAll(async () => {
    await symlink('loop', temp.at('loop'));
  });
  /** What perf's plan phase (everything before a device starts) refuses `argv` with. */
  const planRefusal = async (argv: string[]): Promise<Error> => {
    const args = parse(['perf', ...argv]) as Extract<CommandLine, { command: 'perf' }>;
    return (await planPerf(args).catch((e: unknown) => e)) as Error;
  };

  it('--dir (the folder of perf files)', async () => {
    const refused = await planRefusal(['--dir', loop()]);
    expect(refused).toBeInstanceOf(RunInputError);
    expect(refused.message).toBe(`--dir ${loop()}: cannot list this folder of perf files (${LOOP}); name a folder that can be read`);
  });

  it('--baselines (a folder read: checked by the parser)', () => {
    expect(refusalOf(['compare', '--baselines', loop()])).toBe(`--baselines ${loop()}: cannot be read (${LOOP}); name an existing folder`);
  });

  it('--out and --history (outputs: checked before measuring)', async () => {
    const out = await planRefusal(['--scenario', 'memory', '--out', join(loop(), 'run.json')]);
    expect(out).toBeInstanceOf(OutputPathError);
    expect(out.message).toBe(`--out ${join(loop(), 'run.json')}: cannot look at it (${LOOP}); choose another path`);
    const history = await planRefusal(['--scenario', 'memory', '--out', temp.at('run.json'), '--history', loop()]);
    expect(history).toBeInstanceOf(OutputPathError);
    expect(history.message).toBe(`--history: cannot write into ${loop()} (${LOOP}); choose another place`);
  });

  it('the data folders: --mnist-dir, --kinetics-root, --image-folder (named with the cause by their readers)', async () => {
    const mnist = await planRefusal(['--scenario', 'memory', '--mnist-dir', loop()]);
    expect(mnist).toBeInstanceOf(RunInputError);
    expect(mnist.message).toMatch(new RegExp(`^${loop()}: cannot be read \\(${LOOP}\\); expected a folder holding train-images-idx3-ubyte`));
    const images = await planRefusal(['--image-folder', loop()]);
    expect(images.message).toMatch(new RegExp(`^${loop()}: cannot read the image folder \\(${LOOP}\\); expected <folder>/<class>/<image file>`));
    for (const refused of [mnist, images]) expect(refused.message).not.toContain('\n');
  });
});
