// The exports for other engines (--bmf, --junit, --gab-bigger, --gab-smaller) through the real
// CLI: compare writes them from a committed run record and the committed baseline (no
// measuring), each valid as its engine reads it; a path of another kind is refused before
// anything runs (compare, and ab before it checks anything out); every judging command's help
// lists them. An A/B that writes them is in src/package/pack.e2e.test.ts (the user project's A/A).
import { copyFile, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, ROOT } from '../../test/support/cli.js';
import { bmfFindings, gabFileSchema, junitXsdFindings, readJunitAsTestReporter } from '../../test/support/export-validators.js';
import { bmfMeasureOf } from '../report/bmf.js';
import type { Metric } from '../results/schema.js';
import { tempFolder } from '../../test/support/temp-folder.js';

const PROFILE = 'webgpu-lavapipe-amd-epyc-2c-x64';
/** A committed run of the CI profile (history/), judged against the committed baseline of its profile. */
const RUN = join(ROOT, 'history', PROFILE, 'f34850386a11100aea0c60d329010fc38e131379-2026-12-04T11-39-19-786Z.json');
const FLAGS = ['--bmf', '--junit', '--gab-bigger', '--gab-smaller'] as const;

describe('the exports for other engines, written by the real CLI', () => {
  const temp = tempFolder('gtp-exports-');
  const at = (name: string) => temp.at(name);
  const exportArgs = () => ['--bmf', at('run.bmf.json'), '--junit', at('run.xml'), '--gab-bigger', at('bigger.json'), '--gab-smaller', at('smaller.json')];

  it('gtp compare writes BMF, JUnit and the github-action-benchmark pair of a committed run, each valid for its engine, and replaces them on a second run', async () => {
    const first = await cli(['compare', RUN, ...exportArgs(), '--json', at('verdicts.json')], ROOT, { timeoutMs: 120_000 });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const record = JSON.parse(await readFile(RUN, 'utf8')) as { metrics: Array<{ id: string }>; skipped?: unknown[]; errors: unknown[] };
    const verdicts = (JSON.parse(await readFile(at('verdicts.json'), 'utf8')) as { verdicts: Array<{ id: string; verdict: string }> }).verdicts;

    const bmf = JSON.parse(await readFile(at('run.bmf.json'), 'utf8')) as Record<string, unknown>;
    expect(bmfFindings(bmf)).toEqual([]);
    // Only quantities worth a threshold: the host probes, sync floors, limits and references are information (docs/ci.md).
    const worth = record.metrics.filter((m) => bmfMeasureOf(m as Metric) !== null);
    expect(worth.length).toBeGreaterThan(0);
    expect(Object.keys(bmf).sort()).toEqual(worth.map((m) => m.id).sort());

    expect(await junitXsdFindings(at('run.xml'))).toBe(`${at('run.xml')} validates`);
    const { cases } = await readJunitAsTestReporter(await readFile(at('run.xml'), 'utf8'));
    const missing = verdicts.filter((v) => v.verdict === 'missing').map((v) => v.id);
    expect(missing.length).toBeGreaterThan(0);
    // The baseline metrics of the scenarios this run left out: one summary case, not one each.
    expect(cases).toHaveLength(verdicts.length - missing.length + 1 + (record.skipped?.length ?? 0) + record.errors.length);
    expect(new Set(cases.map((c) => c.classname))).toEqual(new Set([`gpu-transfer-perf.${PROFILE}`]));
    // Exit 0: nothing failed; the metrics of the scenarios this run left out are skipped as not measured.
    expect(cases.filter((c) => c.result === 'failed')).toEqual([]);
    const notMeasured = cases.filter((c) => c.result === 'skipped' && c.message?.startsWith('not measured: ')).map((c) => c.name);
    expect(notMeasured).toEqual([`${missing.length} baseline metric(s) of scenarios this run did not select`]);

    const bigger = gabFileSchema.parse(JSON.parse(await readFile(at('bigger.json'), 'utf8')));
    const smaller = gabFileSchema.parse(JSON.parse(await readFile(at('smaller.json'), 'utf8')));
    expect(bigger.some((b) => b.unit === 'x')).toBe(true);
    expect(smaller.every((b) => b.unit === 'ms' || b.name.includes('.step-time-vs-resident.'))).toBe(true);

    // The second run replaces each file (written to a temp name and renamed over it: a new inode), with the same content.
    const files = ['run.bmf.json', 'run.xml', 'bigger.json', 'smaller.json'].map(at);
    const before = await Promise.all(files.map(async (f) => ({ ino: (await stat(f)).ino, text: await readFile(f, 'utf8') })));
    const again = await cli(['compare', RUN, ...exportArgs()], ROOT, { timeoutMs: 120_000 });
    expect(again.code, again.stdout + again.stderr).toBe(0);
    for (const [i, f] of files.entries()) {
      expect((await stat(f)).ino, f).not.toBe(before[i]!.ino);
      // JUnit's timestamp and time are the run's, so the files are the same when the record is.
      expect(await readFile(f, 'utf8'), f).toBe(before[i]!.text);
    }
  });

  it('refuses, with exit 2 and one line, an export path that holds another kind of file, leaving it as it was; ab before it measures', async () => {
    const pkg = at('package.json');
    await copyFile(join(ROOT, 'package.json'), pkg);
    const kept = await readFile(pkg, 'utf8');
    const compare = await cli(['compare', RUN, '--gab-bigger', pkg], ROOT, { timeoutMs: 120_000 });
    expect(compare.code).toBe(2);
    expect(compare.stderr).toMatch(/--gab-bigger .*package\.json exists and is another JSON file, not a github-action-benchmark file/);
    expect(compare.stderr.trim().split('\n')).toHaveLength(1);
    expect(await readFile(pkg, 'utf8')).toBe(kept);

    const notes = at('notes.xml');
    await writeFile(notes, '<notes/>\n');
    const ab = await cli(['ab', '--base', 'HEAD', '--junit', notes], ROOT, { timeoutMs: 120_000 });
    expect(ab.code).toBe(2);
    expect(ab.stderr).toMatch(/--junit .*notes\.xml exists and is another file, not a JUnit XML report/);
    expect(ab.stdout + ab.stderr).not.toMatch(/pair |process \d/);
    expect(await readFile(notes, 'utf8')).toBe('<notes/>\n');
  });

  it('lists the flags in the help of perf, compare and ab', async () => {
    for (const command of ['perf', 'compare', 'ab']) {
      const help = await cli([command, '--help']);
      expect(help.code).toBe(0);
      for (const flag of FLAGS) expect(help.stdout, `${command} --help`).toMatch(new RegExp(`^ {2}${flag} FILE +\\S`, 'm'));
    }
  });
});
