import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { testRunRecord } from '../results/run-record.fixture.js';
import { chartPath, chartSpecs, renderCharts, writeCharts } from './charts.js';
import { reportTestRecord } from './report.fixture.js';

/** Data marks in vega's SVG: groups of role "mark" holding paths (lines, areas, symbols, bars) or lines (rules). */
const dataMarks = (svg: string) => (svg.match(/class="mark-(line|area|symbol|rect|rule) role-mark[^"]*"[^>]*>(<path|<line)/g) ?? []).length;

describe('charts', () => {
  it('has a chart for each kind of data the run holds, and none without data', () => {
    expect(chartSpecs(reportTestRecord()).map((c) => c.name)).toEqual(['stages', 'sweep-time', 'sweep-speedup', 'training-curves', 'training-epoch-time']);
    expect(chartSpecs(testRunRecord([]))).toEqual([]);
  });

  it('renders every chart to SVG in Node with its marks, axes and a log2 batch axis', async () => {
    const charts = await renderCharts(reportTestRecord());
    for (const c of charts) {
      expect(c.svg.startsWith('<svg')).toBe(true);
      expect(dataMarks(c.svg)).toBeGreaterThan(0);
    }
    const time = charts.find((c) => c.name === 'sweep-time')!.svg;
    // Ticks at every measured size, in order, on the log axis.
    const ticks = [...time.matchAll(/>(32|64|128|256|512)<\/text>/g)].map((m) => m[1]);
    expect(ticks.slice(0, 5)).toEqual(['32', '64', '128', '256', '512']);
    expect(time).toContain('cpu-normalize');
    expect(time).toContain('device-normalize');
    // The CI bands and lines: one of each per strategy; the legend lists only the strategies present.
    expect((time.match(/class="mark-area role-mark/g) ?? []).length).toBe(2);
    expect((time.match(/class="mark-line role-mark/g) ?? []).length).toBe(2);
    expect(time).not.toContain('resident');
  });

  it('writes SVG and PNG files next to the run record', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'charts-'));
    try {
      const record = join(dir, 'run.json');
      const { written, skipped } = await writeCharts(reportTestRecord(), record);
      expect(skipped).toEqual([]);
      expect(written).toContain(join(dir, 'run.sweep-time.svg'));
      expect(written).toContain(chartPath(record, 'sweep-speedup', 'png'));
      expect(written).toHaveLength(10);
      const png = await sharp(await readFile(chartPath(record, 'sweep-time', 'png'))).metadata();
      expect(png.format).toBe('png');
      expect(png.width).toBeGreaterThan(500);
      for (const path of written) expect((await stat(path)).size).toBeGreaterThan(1000);
      // A second run replaces its own charts; a file of the user's at a chart path is left alone.
      await writeFile(chartPath(record, 'stages', 'png'), 'my own notes');
      const again = await writeCharts(reportTestRecord(), record);
      expect(again.skipped).toEqual([chartPath(record, 'stages', 'png')]);
      expect(again.written).toHaveLength(9);
      expect(await readFile(chartPath(record, 'stages', 'png'), 'utf8')).toBe('my own notes');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
