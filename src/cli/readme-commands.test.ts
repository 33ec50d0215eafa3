import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../test/support/cli.js';
import { commandOf, parseCommandLine } from './args.js';

/**
 * Every command line README.md shows works on a fresh clone (issue 40, item 8), checked without
 * measuring anything: the npm script it runs exists, gtp's arguments parse with the CLI's own
 * parser, and every path it names is a file or folder git tracks (a fresh clone holds nothing
 * else) or one an earlier command of the README wrote.
 */

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};
const TRACKED = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
/** Tracked files and every folder above one. */
const IN_CLONE = new Set(TRACKED.flatMap((f) => f.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'))));

/** An npm script that runs the CLI (`exec node --import ./scripts/tsx-tmpdir.mjs --import tsx src/cli/main.ts <words>`): the words it puts before the user's arguments. */
const CLI_SCRIPT = /^exec node --import \.\/scripts\/tsx-tmpdir\.mjs --import tsx src\/cli\/main\.ts(?: (.*))?$/;

/** Flags whose value is a file the command writes: a later command may name it. */
const OUTPUT_FLAGS = new Set(['--out', '--json', '--junit', '--bmf', '--gab-bigger', '--gab-smaller', '--html']);

/** An inline span that only names a command: `gtp X`, `npx gtp X` or `npm run X`, nothing after. */
const NAME_ONLY = /^(?:npx gtp|gtp|npm run) [\w:-]+$/;

/**
 * The README's command lines: each line of its sh blocks (comments dropped, `a && b` as two), and
 * each inline `npm ...`, `npx gtp ...` or `gtp ...` with its placeholders filled: an optional
 * `[...]` left out, REF a commit, `<command>` a command; a span holding `...` (an elision) is not a
 * command line.
 */
function readmeCommands(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/gm)].flatMap((m) =>
    m[1]!
      .split('\n')
      .map((line) => line.replace(/(^|\s)#.*$/, '').trim())
      .filter(Boolean)
      .flatMap((line) => line.split(/\s+&&\s+/)),
  );
  const inline = [...markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/`((?:npm |npx gtp\b|gtp )[^`]*)`/g)]
    .map((m) => m[1]!)
    .filter((span) => !span.includes('...'))
    .map((span) =>
      span
        .replace(/\s*\[[^\]]*\]/g, '')
        .replace(/\bREF\b/g, 'HEAD')
        .replace(/<command>/g, 'help'),
    );
  return [...new Set([...blocks, ...inline.filter((l) => !NAME_ONLY.test(l))])];
}

/** The commands README.md names in prose without arguments (`gtp ab`), apart from its command lines. */
const readmeNames = (markdown: string): string[] =>
  [...new Set([...markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/`((?:npx gtp|gtp|npm run) [\w:-]+)`/g)].map((m) => m[1]!))].filter((l) =>
    NAME_ONLY.test(l),
  );

/**
 * A command named in prose (`gtp ab`, `npm run perf:history`: inline, no arguments): why it does
 * not work as written ([] when it does); a command whose required flags it leaves out (`gtp ab`
 * needs --base) only has to exist: its command line with them is checked where the README shows it.
 */
function nameProblems(line: string): string[] {
  const words = line.split(/\s+/);
  const gtpWord = words[0] === 'npx' ? words[2] : words[0] === 'gtp' ? words[1] : undefined;
  if (gtpWord !== undefined && gtpWord !== 'help' && commandOf([gtpWord]) === undefined) return [`${line}: gtp has no command ${gtpWord}`];
  return commandProblems(line, new Set()).filter((p) => !/ (?:is|are both) required\b/.test(p));
}

/** Why a command line would not work on a fresh clone ([] when it would); `written` collects what it writes for the lines after it. */
function commandProblems(line: string, written: Set<string>): string[] {
  const words = line.split(/\s+/);
  const pipe = words.indexOf('|');
  const [tool, ...args] = pipe >= 0 ? words.slice(0, pipe) : words;
  const problems: string[] = [];
  const gtp = (argv: string[]) => {
    try {
      parseCommandLine(argv, {});
    } catch (error) {
      problems.push(`gtp ${argv.join(' ')}: ${(error as Error).message}`);
    }
    argv.forEach((word, i) => {
      if (OUTPUT_FLAGS.has(argv[i - 1] ?? '')) written.add(word);
      else if (word.includes('/') && !word.startsWith('-') && !IN_CLONE.has(word.replace(/\/$/, '')) && !written.has(word))
        problems.push(`${word}: not in a fresh clone (git ls-files) and written by no earlier command`);
    });
  };
  if (tool === 'npx' || tool === 'gtp') {
    if (tool === 'npx' && args[0] !== 'gtp') return [`npx ${args[0]}: not this package's command`];
    gtp(tool === 'npx' ? args.slice(1) : args);
  } else if (tool === 'npm') {
    const [sub, ...rest] = args;
    if (sub === 'ci') return IN_CLONE.has('package-lock.json') ? [] : ['npm ci: no package-lock.json is tracked'];
    if (sub === 'install') {
      const wanted = { ...PACKAGE.devDependencies, ...PACKAGE.peerDependencies };
      return rest
        .filter((w) => !w.startsWith('-'))
        .flatMap((spec) => {
          const at = spec.lastIndexOf('@');
          const [name, version] = at > 0 ? [spec.slice(0, at), spec.slice(at + 1)] : [spec, null];
          const pin = wanted[name];
          if (name === PACKAGE.name) return [];
          if (pin === undefined) return [`npm install ${spec}: ${name} is not a peer or development dependency of the harness`];
          return version === null || pin.replace(/^[~^]/, '') === version ? [] : [`npm install ${spec}: the harness pins ${name} ${pin}`];
        });
    }
    const name = sub === 'test' ? 'test' : sub === 'run' ? rest.shift() : undefined;
    const script = name === undefined ? undefined : PACKAGE.scripts[name];
    if (script === undefined) return [`npm ${args.join(' ')}: no such npm script`];
    const userArgs = rest[0] === '--' ? rest.slice(1) : rest;
    const cli = CLI_SCRIPT.exec(script);
    if (cli) gtp([...(cli[1]?.split(' ') ?? []), ...userArgs]);
    else if (userArgs.length > 0) problems.push(`npm run ${name}: arguments to a script that is not the CLI (${script})`);
    else
      for (const file of script.match(/[\w.-]+(?:\/[\w.-]+)+\.(?:sh|ts|mjs|js)\b/g) ?? [])
        if (!IN_CLONE.has(file)) problems.push(`npm run ${name}: runs ${file}, which is not tracked`);
  } else {
    problems.push(`${tool}: not a command this check knows`);
  }
  return problems;
}

describe("README.md's command lines on a fresh clone", () => {
  const lines = readmeCommands(README);

  it('finds the sh blocks and the inline commands', () => {
    expect(lines).toEqual(
      expect.arrayContaining(['npm run setup:system', 'npm ci', 'npm run perf', 'npm test', 'npx gtp perf', 'npm run perf:ab -- --base HEAD']),
    );
    expect(lines.filter((l) => l.startsWith('npx gtp perf --image-folder'))).toHaveLength(1);
    expect(lines.length).toBeGreaterThan(12);
  });

  it('every one works: its script exists, its arguments parse, its paths are in the clone or written before', () => {
    const written = new Set<string>();
    expect(lines.flatMap((line) => commandProblems(line, written).map((p) => `${line}\n    ${p}`))).toEqual([]);
  });

  it('every command named in prose exists, and works as written where it needs no flag', () => {
    const names = readmeNames(README);
    expect(names).toEqual(expect.arrayContaining(['gtp ab', 'gtp bisect', 'npm run perf:ab', 'npm run perf:history', 'npx gtp help']));
    expect(names.flatMap(nameProblems)).toEqual([]);
    expect(nameProblems('gtp nothing')).toEqual(['gtp nothing: gtp has no command nothing']);
    expect(nameProblems('npm run nothing')).toEqual(['npm run nothing: no such npm script']);
    expect(nameProblems('npm run perf:history')).toEqual([]);
  });

  it('the check is not vacuous: a missing script, a bad flag, a path a clone lacks and a wrong pin each fail', () => {
    const problems = (line: string) => commandProblems(line, new Set());
    expect(problems('npm run perf:nothing')).toEqual(['npm run perf:nothing: no such npm script']);
    expect(problems('npm run perf -- --no-such-flag')[0]).toMatch(/^gtp perf --no-such-flag: /);
    expect(problems('npx gtp perf --image-folder data/train')).toEqual(['data/train: not in a fresh clone (git ls-files) and written by no earlier command']);
    expect(problems('npm install --save-dev vitest@1.0.0')[0]).toMatch(/the harness pins vitest/);
    const written = new Set<string>();
    expect(commandProblems('npx gtp compare --json results/x.json', written)).toEqual([]);
    expect(commandProblems('npx gtp report results/x.json', written)).toEqual([]);
  });
});
