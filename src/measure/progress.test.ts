import { describe, expect, it } from 'vitest';
import { formatDuration, Progress, renderBar, type ProgressStream } from './progress.js';

function sink(isTTY: boolean): ProgressStream & { text: string } {
  const s = { text: '', isTTY, columns: 200, write: (t: string) => (s.text += t) };
  return s;
}

describe('formatDuration and renderBar', () => {
  it('formats minutes and hours', () => {
    expect(formatDuration(65_000)).toBe('1:05');
    expect(formatDuration(3_723_000)).toBe('1:02:03');
    expect(formatDuration(Number.NaN)).toBe('?');
  });
  it('fills the bar in proportion', () => {
    expect(renderBar(0.5, 10)).toBe('[#####-----]');
    expect(renderBar(2, 4)).toBe('[####]');
  });
});

describe('Progress', () => {
  it('redraws one line in place on a terminal, with rate and ETA', () => {
    let t = 0;
    const out = sink(true);
    const p = new Progress({ label: 'training', total: 10, unit: 'steps', stream: out, now: () => t });
    t = 2000;
    p.update(4, 'epoch 1/2');
    expect(out.text).toBe('\r' + 'training [##########--------------] 4/10 steps (40%) 2.00 steps/s ETA 0:03 | epoch 1/2\x1b[K');
    t = 2050;
    p.tick(); // within 100 ms of the last draw: not redrawn
    expect(out.text.split('\r')).toHaveLength(2);
    t = 5000;
    p.finish('loss 0.3');
    expect(out.text.endsWith('5/10 steps (50%) 1.00 steps/s ETA 0:05 | loss 0.3\x1b[K\n')).toBe(true);
  });

  it('prints plain lines at most every interval without a terminal, and the last one once', () => {
    let t = 0;
    const out = sink(false);
    const p = new Progress({ label: 'sweep', total: 4, unit: 'rounds', stream: out, now: () => t, plainEveryMs: 1000 });
    t = 10;
    p.tick(); // first line: due (nothing drawn yet)
    t = 500;
    p.tick(); // within the interval: silent
    t = 1500;
    p.tick();
    t = 1600;
    p.tick(); // the total: always drawn
    p.finish();
    const lines = out.text.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('sweep 4/4 rounds (100%) 2.50 rounds/s done in 0:02');
    expect(out.text).not.toContain('\r');
  });

  it('states slow rates per unit', () => {
    let t = 0;
    const out = sink(false);
    const p = new Progress({ label: 'x', total: 3, unit: 'steps', stream: out, now: () => t });
    t = 4000;
    p.update(1);
    expect(out.text).toContain('4.00 s/step ETA 0:08');
  });

  it('shows the time so far instead of a rate and an ETA when asked (units of unlike size)', () => {
    let t = 0;
    const out = sink(false);
    const p = new Progress({ label: 'perf files', total: 4, unit: 'files', stream: out, now: () => t, eta: false });
    t = 65_000;
    p.update(1, '02-cpu-normalize.spec.ts');
    expect(out.text).toBe('perf files 1/4 files (25%) 1:05 so far | 02-cpu-normalize.spec.ts\n');
  });

  it('lets other lines through without tearing the line drawn in place', () => {
    let t = 0;
    const out = sink(true);
    const p = new Progress({ label: 'x', total: 2, unit: 'files', stream: out, now: () => t, eta: false });
    p.around(() => out.write('before any draw\n')); // nothing drawn yet: nothing to erase
    expect(out.text).toBe('before any draw\n');
    t = 1000;
    p.update(1);
    const drawn = out.text.length;
    p.around(() => out.write('a log line\n'));
    expect(out.text.slice(drawn)).toBe('\r\x1b[Ka log line\n\rx [############------------] 1/2 files (50%) 0:01 so far\x1b[K');
  });
});
