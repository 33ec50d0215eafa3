import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { testAbResult } from '../../test/support/ab-result.js';
import { testRatio, testRunRecord } from '../../test/support/run-record.js';
import { checkOutput, type OutputKind } from '../results/output-guard.js';
import { EXPORTERS } from './exporters.js';
import { tempFolder } from '../../test/support/temp-folder.js';

/** The exports for other engines: their output kinds recognize what their exporters write, and nothing else. */
const FORMATS = ['bmf', 'junit', 'gab-bigger', 'gab-smaller'] as const;
const input = { record: testRunRecord([testRatio('mnist-transfer.speedup', 1.25, [1.2, 1.3])]), recordPath: null, comparison: null };

describe("the output guard's kinds of the exports for other engines", () => {
  const temp = tempFolder('export-kinds-');
  const write = async (name: string, text: string) => {
    await writeFile(temp.at(name), text);
    return temp.at(name);
  };
  const check = (path: string, kind: OutputKind) => checkOutput({ path, kind, flag: '--x' }, { force: false });

  it('lets each format replace what it wrote before, from perf or compare and from ab, and an empty one', async () => {
    for (const format of FORMATS) {
      const entry = EXPORTERS.find((e) => e.format === format)!;
      const exporter = await entry.load();
      await expect(check(await write(`${format}.run`, await exporter.render(input, { color: false })), entry.kind)).resolves.toBeUndefined();
      await expect(check(await write(`${format}.ab`, exporter.renderAb!(testAbResult())), entry.kind)).resolves.toBeUndefined();
    }
    await expect(check(await write('empty.bmf.json', '{}\n'), 'Bencher Metric Format file')).resolves.toBeUndefined();
    await expect(check(await write('empty.gab.json', '[]\n'), 'github-action-benchmark file')).resolves.toBeUndefined();
  });

  it("refuses a file of another kind, naming it: a package.json, another tool's JUnit report, a run record, one export over another", async () => {
    const pkg = await write('package.json', '{"name":"x","version":"1.0.0"}\n');
    await expect(check(pkg, 'Bencher Metric Format file')).rejects.toThrow(/is another JSON file, not a Bencher Metric Format file/);
    await expect(check(pkg, 'github-action-benchmark file')).rejects.toThrow(/is another JSON file, not a github-action-benchmark file/);
    const vitestJunit = await write('vitest.xml', '<?xml version="1.0" encoding="UTF-8" ?>\n<testsuites name="vitest tests" tests="1">\n</testsuites>\n');
    await expect(check(vitestJunit, 'JUnit XML report')).rejects.toThrow(/is another file, not a JUnit XML report/);
    const run = await write('run.json', JSON.stringify(input.record));
    await expect(check(run, 'Bencher Metric Format file')).rejects.toThrow(/is a run record, not a Bencher Metric Format file/);
    const bmf = temp.at('bmf.run');
    await expect(check(bmf, 'github-action-benchmark file')).rejects.toThrow(/is a Bencher Metric Format file, not a github-action-benchmark file/);
    await expect(check(temp.at('gab-bigger.run'), 'JUnit XML report')).rejects.toThrow(/is a github-action-benchmark file, not a JUnit XML report/);
    await expect(check(temp.at('junit.run'), 'Bencher Metric Format file')).rejects.toThrow(/is a JUnit XML report, not a Bencher Metric Format file/);
  });
});
