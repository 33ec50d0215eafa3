import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../cli/args.js';
import { testRunRecord } from '../../test/support/run-record.js';
import { testAbResult } from '../../test/support/ab-result.js';
import { bmfFindings, gabFileSchema, junitXsdFindings, readJunitAsTestReporter } from '../../test/support/export-validators.js';
import { writeAbExports, writeExports } from './write-exports.js';
import { EXPORTERS, type ExporterEntry, exportFlagSpecs, exportOutputs, exportTargets } from './exporters.js';
import { tempFolder } from '../../test/support/temp-folder.js';

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
  const temp = tempFolder('exporters-');

  it("gives perf and compare their flags, and each command its files with the output guard's kinds", () => {
    expect(exportFlagSpecs('compare').map((f) => f.name)).toEqual(['markdown', 'json', 'bmf', 'junit', 'gab-bigger', 'gab-smaller']);
    const args = parseCommandLine(['compare', '--json', 'v.json'], {});
    if (args.command !== 'compare') throw new Error('not compare');
    expect(args.exports).toEqual({ markdown: null, json: 'v.json', bmf: null, junit: null, 'gab-bigger': null, 'gab-smaller': null });
    const beside = (extension: string, kind: string) => ({ path: `run${extension}`, flag: `the ${kind} beside --out` });
    expect(exportOutputs(exportTargets('perf', { markdown: 'v.md', json: null }, beside))).toEqual([
      { path: 'v.md', kind: 'Markdown verdict summary', flag: '--markdown' },
      { path: 'run.html', kind: 'HTML report', flag: 'the HTML report beside --out' },
    ]);
    expect(exportTargets('compare', args.exports, beside).map((t) => t.entry.format)).toEqual(['json']);
  });

  it('gives ab the formats that render an A/B (its own --json and --markdown are A/B files), each exporter with renderAb', async () => {
    expect(exportFlagSpecs('ab').map((f) => f.name)).toEqual(['bmf', 'junit', 'gab-bigger', 'gab-smaller']);
    for (const entry of EXPORTERS.filter((e) => e.commands.includes('ab'))) expect(typeof (await entry.load()).renderAb).toBe('function');
    const args = parseCommandLine(['ab', '--base', 'main', '--junit', 'v.xml', '--gab-smaller', 's.json'], {});
    if (args.command !== 'ab') throw new Error('not ab');
    expect(args.exports).toEqual({ bmf: null, junit: 'v.xml', 'gab-bigger': null, 'gab-smaller': 's.json' });
    expect(exportOutputs(exportTargets('ab', args.exports, null))).toEqual([
      { path: 'v.xml', kind: 'JUnit XML report', flag: '--junit' },
      { path: 's.json', kind: 'github-action-benchmark file', flag: '--gab-smaller' },
    ]);
  });

  it("writes an A/B's exports (gtp ab's writing step), each as its engine reads it", async () => {
    const paths = {
      bmf: temp.at('ab.bmf.json'),
      junit: temp.at('ab.xml'),
      'gab-bigger': temp.at('ab.bigger.json'),
      'gab-smaller': temp.at('ab.smaller.json'),
    };
    await writeAbExports(testAbResult(), exportTargets('ab', paths, null));
    expect(bmfFindings(JSON.parse(await readFile(paths.bmf, 'utf8')))).toEqual([]);
    expect(await junitXsdFindings(paths.junit)).toBe(`${paths.junit} validates`);
    const failed = (await readJunitAsTestReporter(await readFile(paths.junit, 'utf8'))).cases.filter((c) => c.result === 'failed');
    expect(failed.map((c) => c.name)).toEqual(['ab mnist-transfer.speedup']);
    expect(gabFileSchema.parse(JSON.parse(await readFile(paths['gab-bigger'], 'utf8'))).map((b) => b.name)).toEqual(['mnist-transfer.speedup']);
    expect(gabFileSchema.parse(JSON.parse(await readFile(paths['gab-smaller'], 'utf8'))).map((b) => b.name)).toEqual([
      'mnist-transfer.upload-ms.device-normalize',
    ]);
  });

  it('writes a format registered in one more line, and its job summary whether or not a file was asked for', async () => {
    const exporters = [...EXPORTERS, lineEntry];
    const input = { record: testRunRecord([]), recordPath: temp.at('run.json'), comparison: null };
    const beside = (extension: string) => ({ path: temp.at(`run${extension}`), flag: 'beside the run record' });
    const summary = temp.at('summary.md');
    const targets = exportTargets('perf', { markdown: null, json: null }, beside, exporters);
    expect(targets.map((t) => t.entry.format)).toEqual(['html', 'line']);
    await writeExports(input, 'perf', targets.slice(1), summary, exporters);
    expect(await readFile(temp.at('run.line.txt'), 'utf8')).toBe('run of 0 metrics\n');
    const appended = await readFile(summary, 'utf8');
    expect(appended.startsWith('### gpu-transfer-perf')).toBe(true);
    expect(appended.endsWith('run of 0 metrics\n')).toBe(true);
  });
});
