import { describe, expect, it } from 'vitest';
import { parseCommandLine } from './args.js';
import { UsageError } from './usage-error.js';

const parse = (...argv: string[]) => parseCommandLine(['doctor', ...argv], {});

describe('doctor --prometheus / --health-check flags', () => {
  it('reads them, with the 50 s deadline by default', () => {
    expect(parse('--prometheus', 'd/gtp.prom', '--health-check')).toMatchObject({ prometheus: 'd/gtp.prom', healthCheck: true, deadline: 50 });
    expect(parse('--health-check', '--deadline', '20', '--from', 'r.json')).toMatchObject({ deadline: 20, from: ['r.json'] });
    expect(parse()).toMatchObject({ prometheus: null, healthCheck: false });
  });

  it('refuses what cannot work, in one line (exit 2)', () => {
    const refused: [string[], RegExp][] = [
      [['--prometheus', 'out.txt'], /textfile collector reads only files named \*\.prom/],
      [['--from', 'r.json'], /--from names reports for --write-envelope FILE, or one report for --prometheus FILE or --health-check/],
      [['--health-check', '--from', 'a.json', '--from', 'b.json'], /take one --from report, got 2/],
      [['--deadline', '10'], /--deadline goes with --health-check/],
      [['--health-check', '--deadline', '0'], /--deadline must be a whole number from 1 to 200/],
      [['--write-envelope', 'e.json', '--health-check'], /run --prometheus or --health-check on its own/],
      [['--health-check', '--json', '-'], /--health-check prints its verdict on stdout and nothing else; --json - needs a file/],
      [['--health-check', '--json', '/dev/stdout'], /--json \/dev\/stdout needs a file/],
    ];
    for (const [argv, message] of refused) {
      expect(() => parse(...argv)).toThrow(UsageError);
      expect(() => parse(...argv)).toThrow(message);
    }
  });
});
