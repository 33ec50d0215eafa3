// The command line as bytes (src/cli/raw-argv.ts) and the refusal it gives (args.ts
// refuseLostBytes): the processes' argument vectors from a /proc of files written here, and
// parseArgs's real tokens. Through the real CLI, with real bytes: src/cli/raw-argv.e2e.test.ts.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempFolder } from '../../test/support/temp-folder.js';
import { refuseLostBytes, UsageError } from './args.js';
import { lostBytes, processArgvs } from './raw-argv.js';

/** `out\xff.json` as bytes: 0xFF starts no UTF-8 sequence. */
const RAW = Buffer.concat([Buffer.from('out'), Buffer.from([0xff]), Buffer.from('.json')]);
/** What Node's argv holds for it. */
const DECODED = 'out\uFFFD.json';

describe('processArgvs: this process and its ancestors, as bytes', () => {
  const temp = tempFolder('gtp-raw-argv-');

  it('reads self, then each parent by PPid, until pid 0; every argument kept as its bytes', async () => {
    const proc = temp.at('proc');
    const make = async (pid: string, args: Buffer[], ppid: string) => {
      await mkdir(join(proc, pid), { recursive: true });
      await writeFile(join(proc, pid, 'cmdline'), Buffer.concat(args.flatMap((a) => [a, Buffer.from([0])])));
      await writeFile(join(proc, pid, 'status'), `Name:\tx\nPPid:\t${ppid}\n`);
    };
    await make('self', [Buffer.from('node'), Buffer.from('main.js'), Buffer.from(DECODED)], '42');
    await make('42', [Buffer.from('npm'), Buffer.from('run'), RAW], '7');
    await make('7', [Buffer.from('bash')], '0');
    const argvs = processArgvs(proc);
    expect(argvs?.map((argv) => argv.map((a) => a.toString('hex')))).toEqual([
      ['node', 'main.js', DECODED].map((a) => Buffer.from(a).toString('hex')),
      [Buffer.from('npm'), Buffer.from('run'), RAW].map((a) => a.toString('hex')),
      [Buffer.from('bash').toString('hex')],
    ]);
    expect(processArgvs(temp.at('no-proc'))).toBeNull();
  });

  it("Node's argv decoding is Buffer's: the bytes decode to what process.argv holds", () => {
    expect(RAW.toString('utf8')).toBe(DECODED);
  });
});

describe('lostBytes', () => {
  it('finds the invalid bytes that decode to the argument, in any process of the chain (tsx CLI decodes before its child)', () => {
    expect(lostBytes(DECODED, [[Buffer.from(DECODED)], [Buffer.from('tsx'), RAW]])).toEqual({ bytes: RAW });
  });
  it('a real U+FFFD (bytes EF BF BD everywhere), or an argument from no command line: not lost', () => {
    expect(lostBytes(DECODED, [[Buffer.from(DECODED)], [Buffer.from(DECODED)]])).toBeNull();
    expect(lostBytes(DECODED, [[Buffer.from('node')]])).toBeNull();
    expect(lostBytes('out.json', null)).toBeNull();
  });
  it("an ancestor holding it only inside its title (npm's, which replaced its cmdline): unknown, refused", () => {
    expect(lostBytes(DECODED, [[Buffer.from(DECODED)], [Buffer.from(`npm run gtp -- compare --json ${DECODED}`)]])).toEqual({
      unknown: 'a process before the CLI (npm) read the command line as UTF-8 first, so the bytes given are gone',
    });
  });
  it('U+FFFD where no bytes can be read (no /proc): unknown, refused too', () => {
    expect(lostBytes(DECODED, null)).toEqual({ unknown: 'the bytes given cannot be read here (no /proc)' });
  });
});

describe('refuseLostBytes (every command line parsed: args.ts parsedLine)', () => {
  const tokens = (args: string[]) =>
    parseArgs({ args, tokens: true, allowPositionals: true, strict: true, options: { out: { type: 'string' }, force: { type: 'boolean' } } }).tokens;
  const refusal = (args: string[], argvs: Buffer[][] | null): string | null => {
    try {
      refuseLostBytes('report', args, tokens(args), () => argvs);
      return null;
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError);
      return (error as Error).message;
    }
  };

  it('names the flag and shows the bytes, for --out V and --out=V', () => {
    const says =
      'report: --out out\\xff.json: not valid UTF-8 (each \\xNN is a byte); Node reads the command line as UTF-8, with U+FFFD for such bytes, so it would name another file; rename the file, or link to it, under a valid UTF-8 name (nothing was read or written)';
    expect(refusal(['--out', DECODED], [[RAW]])).toBe(says);
    expect(refusal([`--out=${DECODED}`], [[Buffer.concat([Buffer.from('--out='), RAW])]])).toBe(says);
  });

  it('an argument (a run record that exists under bytes Node cannot decode) is refused, not reported ENOENT', () => {
    expect(refusal(['--force', DECODED], [[RAW]])).toMatch(/^report: the argument out\\xff\.json: not valid UTF-8/);
  });

  it('without /proc: refused as holding U+FFFD, the bytes unknown', () => {
    expect(refusal(['--out', DECODED], null)).toMatch(
      /^report: --out out\uFFFD\.json: holds U\+FFFD, which is what Node puts for bytes that are not valid UTF-8, and the bytes given cannot be read here \(no \/proc\); rename/,
    );
  });

  it('valid names are taken, a real U+FFFD too; the bytes are read only when a value holds U+FFFD', () => {
    let reads = 0;
    const count = () => {
      reads++;
      return [[Buffer.from(DECODED)]];
    };
    refuseLostBytes('report', ['--out', 'é.json', 'run.json'], tokens(['--out', 'é.json', 'run.json']), count);
    expect(reads).toBe(0);
    refuseLostBytes('report', ['--out', DECODED], tokens(['--out', DECODED]), count);
    expect(reads).toBe(1);
  });
});
