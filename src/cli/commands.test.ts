// Per-command --help and the registry: each command declares its own flags and help beside its
// code (src/cli/<command>.ts), listed once in src/cli/commands.ts; main.ts dispatches through it.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { commandOf, commandsHelp, flagsOf, helpText, parseCommandLine, usageHint } from './args.js';
import { COMMANDS } from './commands.js';
import { DATASET_SOURCES } from '../data/sources.js';

const flagLine = (flag: string) => new RegExp(`^ {2}--${flag}\\b`, 'm');

describe('the registry of commands', () => {
  it('gives every command its help, its parse step and its runner', () => {
    expect(COMMANDS.map((c) => c.name).sort()).toEqual(['ab', 'baseline', 'bisect', 'calibrate', 'compare', 'doctor', 'history', 'perf', 'report']);
    for (const c of COMMANDS) {
      expect(c.summary, c.name).not.toBe('');
      expect(c.exits.length, c.name).toBeGreaterThan(0);
      expect(typeof c.parse, c.name).toBe('function');
      expect(typeof c.run, c.name).toBe('function');
      // Every flag it parses is in its help (a flag described on another's line, e.g. --std with --mean, named there).
      const help = helpText(c.name, true);
      for (const f of flagsOf(c)) expect(help, `${c.name} --${f.name}`).toContain(`--${f.name}`);
    }
  });

  it('is what main.ts dispatches through: no switch of its own', async () => {
    const main = await readFile(new URL('./main.ts', import.meta.url), 'utf8');
    expect(main).toContain('runCommand(');
    expect(main).not.toMatch(/switch \(/);
    expect(main).not.toMatch(/from '\.\/(perf|ab|bisect|doctor|compare|baseline|report|calibrate|history)\.js'/);
  });

  it('keeps command files off args.ts, which imports the registry (their types: command-spec.ts)', async () => {
    for (const c of COMMANDS) {
      const text = await readFile(new URL(`./${c.name}.ts`, import.meta.url), 'utf8');
      expect(text, c.name).not.toMatch(/from '\.\/(args|commands)\.js'/);
    }
  });
});

describe('gtp <command> --help', () => {
  it("prints that command's own flags, and not another command's", () => {
    expect(parseCommandLine(['perf', '--help'], {})).toEqual({ command: 'help', topic: 'perf' });
    expect(parseCommandLine(['ab', '-h'], {})).toEqual({ command: 'help', topic: 'ab' });
    const perf = helpText('perf', true);
    expect(perf).toMatch(flagLine('shape'));
    expect(perf).not.toMatch(/--good|--base REF|--write-envelope/);
    const ab = helpText('ab', true);
    expect(ab).toMatch(flagLine('base'));
    expect(ab).not.toMatch(/--shape|--mnist-dir|--good/);
    const bisect = helpText('bisect', true);
    expect(bisect).toMatch(/--good REF, --bad REF/);
    expect(bisect).not.toMatch(/--base|--shape/);
    expect(helpText('doctor', true)).toMatch(flagLine('sysfs-root'));
    expect(helpText('doctor', true)).not.toMatch(/--shape|--base/);
    expect(helpText('report', true)).not.toMatch(/--gate-timing|--shape/);
  });

  it('says its usage line, environment and exit codes, in the form that works where it runs', () => {
    const here = helpText('ab', true);
    expect(here).toMatch(/^Usage: npm run perf:ab -- --base REF \[options\]$/m);
    expect(here).toMatch(/^Environment:\n {2}PERF_BACKEND/m);
    expect(here).toMatch(/^Exit codes:\n {2}0 /m);
    const installed = helpText('ab', false);
    expect(installed).toMatch(/^Usage: npx gtp ab --base REF \[options\]$/m);
    expect(installed).not.toMatch(/npm run|perf:ab/);
  });

  it('marks the flags only the built-in scenarios read where the package is installed (npx gtp perf)', () => {
    const installed = helpText('perf', false);
    expect(installed).toMatch(/^Usage: npx gtp perf \[options\]$/m);
    expect(installed).not.toMatch(/npm run/);
    const [own, builtIn] = installed.split(/^Built-in scenarios only.*$/m);
    expect(builtIn, installed).toBeDefined();
    for (const f of DATASET_SOURCES.flatMap((s) => s.flags)) {
      expect(builtIn).toMatch(flagLine(f.name));
      expect(own).not.toContain(`--${f.name}`);
    }
    expect(installed).toMatch(/FFMPEG_PATH, FFPROBE_PATH \(built-in scenarios only\)/);
    // In this repository they are the data of the scenarios that run: a heading, no mark.
    expect(helpText('perf', true)).not.toMatch(/built-in scenarios only/i);
    // calibrate's --scenario names built-in scenarios: under their heading where the package is installed.
    const [ownCalibrate, builtInCalibrate] = helpText('calibrate', false).split(/^Built-in scenarios only.*$/m);
    expect(builtInCalibrate).toMatch(flagLine('scenario'));
    expect(ownCalibrate).not.toContain('--scenario');
  });
});

describe('gtp --help', () => {
  it('lists every registered command in one line each, and where its flags are', () => {
    expect(parseCommandLine(['--help'], {})).toEqual({ command: 'help', topic: null });
    expect(parseCommandLine(['help'], {})).toEqual({ command: 'help', topic: null });
    expect(parseCommandLine(['help', 'bisect'], {})).toEqual({ command: 'help', topic: 'bisect' });
    for (const sources of [true, false]) {
      const list = commandsHelp(sources);
      for (const c of COMMANDS)
        expect(
          list.split('\n').filter((l) => l.includes(c.summary)),
          c.name,
        ).toHaveLength(1);
    }
    expect(commandsHelp(false)).toMatch(/^npx gtp <command> --help for its flags/m);
    expect(commandsHelp(false)).toMatch(/^ {2}npx gtp ab --base REF {2,}A\/B/m);
    expect(commandsHelp(true)).toMatch(/^ {2}npm run perf:ab -- --base REF {2,}A\/B/m);
  });
});

describe('a usage error', () => {
  it("names the command and points at that command's --help, as typed where it runs", () => {
    expect(() => parseCommandLine(['ab', '--shape', '1x2x2x3'], {})).toThrow(/^ab: Unknown option '--shape'/);
    expect(commandOf(['ab', '--shape', '1x2x2x3'])).toBe('ab');
    expect(commandOf(['--fast'])).toBe('perf');
    expect(commandOf(['bench'])).toBeUndefined();
    expect(usageHint('ab', true)).toBe('Run `npm run perf:ab -- --help` for the flags of ab.');
    expect(usageHint('ab', false)).toBe('Run `npx gtp ab --help` for the flags of gtp ab.');
    expect(usageHint(undefined, false)).toBe('Run `npx gtp help` for the commands.');
  });
});
