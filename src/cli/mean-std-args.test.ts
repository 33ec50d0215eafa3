import { describe, expect, it } from 'vitest';
import { cli } from '../../test/support/cli.js';
import { normalizationInWords } from '../transfer/normalization.js';
import { parseCommandLine, UsageError } from './args.js';

// --mean R,G,B --std R,G,B (issue 26, item 2): parsed into the question, bad values refused
// with one line naming the flag (exit 2 through the real CLI, before any backend starts).

const question = (args: string[]) => {
  const parsed = parseCommandLine(['perf', ...args], {});
  if (parsed.command !== 'perf') throw new Error('not perf');
  return parsed.question;
};

describe('--mean / --std', () => {
  it('reach the --shape and --image-folder questions as numbers on the 0-255 scale', () => {
    expect(question(['--shape', '2x8x8x3', '--mean', '120,115.5,1e2', '--std', '60, 58 ,57.25'])).toMatchObject({
      kind: 'shape',
      normalization: { mean: [120, 115.5, 100], std: [60, 58, 57.25] },
    });
    expect(question(['--image-folder', 'photos', '--mean=-10,0,255', '--std=1,2,3'])).toMatchObject({
      kind: 'image-folder',
      normalization: { mean: [-10, 0, 255], std: [1, 2, 3] },
    });
    // Absent: no normalization in the question, the question's default (ImageNet's) applies.
    expect(question(['--shape', '2x8x8x3'])).not.toHaveProperty('normalization');
  });

  it('take mean 0,0,0 with std 1,1,1 as an explicit "no normalization" (issue 34), not as the 0-1 scale', () => {
    expect(question(['--shape', '2x8x8x3', '--mean', '0,0,0', '--std', '1,1,1'])).toMatchObject({ normalization: { mean: [0, 0, 0], std: [1, 1, 1] } });
    expect(question(['--image-folder', 'photos', '--mean', '0, 0.0 ,0', '--std', '1,1.0,1e0'])).toMatchObject({
      normalization: { mean: [0, 0, 0], std: [1, 1, 1] },
    });
    expect(normalizationInWords({ mean: [0, 0, 0], std: [1, 1, 1] }, true)).toBe(
      'not normalized (your --mean/--std: mean 0,0,0, std 1,1,1): the pixel values as float32',
    );
  });

  it.each([
    [['--shape', '2x8x8x3', '--mean', '1,2', '--std', '3,4,5'], '--mean 1,2: 2 values; give 3, one per channel R,G,B'],
    [['--shape', '2x8x8x3', '--mean', '1,2,3', '--std', '3,4,5,6'], '--std 3,4,5,6: 4 values; give 3, one per channel R,G,B'],
    [['--shape', '2x8x8x3', '--mean', '1,2,3', '--std', '3,0,5'], '--std 3,0,5: a std of 0 divides by zero'],
    [['--shape', '2x8x8x3', '--mean=-58,57,57', '--std=-58,57,57'], '--std -58,57,57: a std must be positive'],
    [['--image-folder', 'photos', '--mean', '120,115,100', '--std', '58,-57,57'], '--std 58,-57,57: a std must be positive'],
    [['--shape', '2x8x8x3', '--mean', '0,0,0', '--std', '1,1,0.5'], "--mean 0,0,0 --std 1,1,0.5: these look like torchvision's 0-1 scale"],
    [['--shape', '2x8x8x3', '--mean', '0.5,0.5,0.5', '--std', '0.5,0.5,0.5'], '(no normalization: --mean 0,0,0 --std 1,1,1)'],
    [['--shape', '2x8x8x3', '--mean', '1,x,3', '--std', '3,4,5'], "--mean 1,x,3: 'x' is not a number"],
    [['--shape', '2x8x8x3', '--mean', '1,,3', '--std', '3,4,5'], "--mean 1,,3: '' is not a number"],
    [['--shape', '2x8x8x3', '--mean', '1,2,Infinity', '--std', '3,4,5'], "--mean 1,2,Infinity: 'Infinity' is not a number"],
    [['--shape', '2x8x8x3', '--mean', '1,2,3'], '--mean and --std go together'],
    [['--shape', '2x8x8x1', '--mean', '1,2,3', '--std', '3,4,5'], 'the shape has 1 channel'],
    [['--mean', '1,2,3', '--std', '3,4,5'], '--mean goes with --shape NxHxWxC (3 channels) or --image-folder DIR'],
    [['--image-folder', 'photos', '--mean', '0.485,0.456,0.406', '--std', '0.229,0.224,0.225'], '--mean 123.675,116.28,103.53 --std 58.395,57.12,57.375'],
  ])('refuses %j: %s', (args, message) => {
    expect(() => question(args)).toThrow(UsageError);
    expect(() => question(args)).toThrow(message);
  });

  it('exits 2 with one line through the real CLI: count not 3, std 0, not a number', async () => {
    for (const [args, message] of [
      [['--mean', '1,2', '--std', '3,4,5'], '--mean 1,2: 2 values; give 3, one per channel R,G,B'],
      [['--mean', '1,2,3', '--std', '0,4,5'], '--std 0,4,5: a std of 0 divides by zero'],
      [['--mean', '1,2,3', '--std', '3,four,5'], "--std 3,four,5: 'four' is not a number"],
    ] as const) {
      const { code, stdout, stderr } = await cli(['perf', '--shape', '1x4x4x3', ...args]);
      expect(code, stderr).toBe(2);
      // One line of cause, then the CLI's usual hint line where to find --help.
      const [cause, ...rest] = stderr.trim().split('\n');
      expect(cause).toBe(`error: ${message}`);
      expect(rest, stderr).toEqual([expect.stringContaining('--help')]);
      expect(stdout).toBe('');
    }
  }, 120_000);
});
