// What `npm run perf` prints, from the real CLI on a small real selection (issue 18): one screen
// by default (while it runs and after), every table with --verbose.
import { describe, expect, it } from 'vitest';
import { cli } from '../../test/support/cli.js';
import { tempFolder } from '../../test/support/temp-folder.js';

const temp = tempFolder('gtp-console-');

const lines = (text: string) => text.split('\n').filter((l, i, all) => l !== '' || i < all.length - 1);

describe('npm run perf on the console', () => {
  it('prints one screen by default: a line per scenario, the verdicts, the exit code, the record and the report', async () => {
    const out = temp.at('brief.json');
    const { code, stdout, stderr } = await cli(['perf', '--scenario', '9', '--scenario', 'speedup', '--out', out]);
    const all = [...lines(stdout), ...lines(stderr)];
    expect(all.length, `${stdout}\n${stderr}`).toBeLessThanOrEqual(60);
    expect(stdout).toContain(`Run record: ${out}`);
    expect(stdout).toContain(`Report: ${temp.at('brief.html')}`);
    // The exit code, in the verdict line (a baseline judged the run) or on its own (none did).
    const stated = /^Verdicts: .*; exit (\d)\.|^Exit (\d)\.$/m.exec(stdout);
    expect(stated, stdout).not.toBeNull();
    expect(Number(stated![1] ?? stated![2])).toBe(code);
    expect(stdout).toMatch(/^ {2}✓ memory +raw uint8 batch 50,176 B; normalized 200,704 B/m);
    // Its mark is the measurement's (✓, or ! when this one process lands beyond the tolerance):
    // the line's form is what is tested here, not a time (a test asserts no speed).
    expect(stdout).toMatch(/^ {2}[✓!] speedup +\d+\.\d\dx \[\d+\.\d\d, \d+\.\d\d\]/m);
    expect(stdout).not.toContain('┌'); // no tables
    expect(stdout).not.toMatch(/charts: /);
    // While it ran: the perf files' own lines and a progress line, not vitest's per-test lines.
    expect(stdout).toContain('[gpu-transfer-perf] backend:');
    expect(stderr).toMatch(/^perf files 2\/2 files \(100%\) done in \d+:\d\d \| no test failed$/m);
    expect(stdout).not.toMatch(/perf\/09-memory\.spec\.ts/);
  }, 120_000);

  it('--verbose prints every table and vitest per-test lines', async () => {
    const out = temp.at('verbose.json');
    const { code, stdout } = await cli(['perf', '--scenario', '9', '--scenario', 'speedup', '--out', out, '--verbose']);
    expect(code, stdout).not.toBe(2);
    expect(stdout).toContain('[memory]');
    expect(stdout).toMatch(/│ memory\.bytes\.raw-batch +│ 50,176 B \(49\.00 KB\)/);
    expect(stdout).toMatch(/perf\/09-memory\.spec\.ts/); // vitest's line for the file
    expect(stdout).toContain(`Run record: ${out}`);
  }, 120_000);
});
