import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommandLine } from '../cli/args.js';
import { testRunRecord } from '../../test/support/run-record.js';
import { writeExports } from './write-exports.js';
import { EXPORTERS, type ExporterEntry, exportFlags, exportOutputs, exportTargets } from './exporters.js';

/** A format registered by this test alone: one line of text, beside the run record and in the job summary. */
const lineEntry: ExporterEntry = {
  format: 'line',
  to: { beside: '.line.txt' },
  kind: 'chart',
  commands: ['perf'],
  jobSummary: true,
  load: async () => ({ format: 'line', render: ({ record }) => `run of ${record.metrics.length} metrics\n` }),
};

describe('the exporter registry', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'exporters-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("gives perf and compare their flags, and each command its files with the output guard's kinds", () => {
    expect(exportFlags()).toEqual(['markdown', 'json']);
    const args = parseCommandLine(['compare', '--json', 'v.json'], {});
    if (args.command !== 'compare') throw new Error('not compare');
    expect(args.exports).toEqual({ markdown: null, json: 'v.json' });
    const beside = (extension: string, kind: string) => ({ path: `run${extension}`, flag: `the ${kind} beside --out` });
    expect(exportOutputs(exportTargets('perf', { markdown: 'v.md', json: null }, beside))).toEqual([
      { path: 'v.md', kind: 'Markdown verdict summary', flag: '--markdown' },
      { path: 'run.html', kind: 'HTML report', flag: 'the HTML report beside --out' },
    ]);
    expect(exportTargets('compare', args.exports, beside).map((t) => t.entry.format)).toEqual(['json']);
  });

  it('writes a format registered in one more line, and its job summary whether or not a file was asked for', async () => {
    const exporters = [...EXPORTERS, lineEntry];
    const input = { record: testRunRecord([]), recordPath: join(dir, 'run.json'), comparison: null };
    const beside = (extension: string) => ({ path: join(dir, `run${extension}`), flag: 'beside the run record' });
    const summary = join(dir, 'summary.md');
    const targets = exportTargets('perf', { markdown: null, json: null }, beside, exporters);
    expect(targets.map((t) => t.entry.format)).toEqual(['html', 'line']);
    await writeExports(input, 'perf', targets.slice(1), summary, exporters);
    expect(await readFile(join(dir, 'run.line.txt'), 'utf8')).toBe('run of 0 metrics\n');
    const appended = await readFile(summary, 'utf8');
    expect(appended.startsWith('### gpu-transfer-perf')).toBe(true);
    expect(appended.endsWith('run of 0 metrics\n')).toBe(true);
  });
});
