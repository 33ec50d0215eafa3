// Issue 40, item 1 through the real CLI: a run whose smaller-is-better ratio (a training step's time
// over the resident step's) got 3x worse exits 1 with "regressed", fails its JUnit case, and raises
// github-action-benchmark's alert in the smaller-is-better file; 3x better does none of these.
// The run records are the committed baseline's own figures (schema 4, so direction comes from the
// migration), one ratio changed: no measuring.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, ROOT } from '../../test/support/cli.js';
import { gabFileSchema, readJunitAsTestReporter } from '../../test/support/export-validators.js';
import { tempFolder } from '../../test/support/temp-folder.js';

const PROFILE = 'webgpu-lavapipe-amd-epyc-2c-x64';
const STEP = 'training.step-time-vs-resident.cpu-normalize';

/** github-action-benchmark 1.22.0's alert (src/write.ts): prev / curr where bigger is better, curr / prev where smaller, above the threshold. */
const alertRatio = (prev: number, curr: number, biggerIsBetter: boolean) => (biggerIsBetter ? prev / curr : curr / prev);

describe('a smaller-is-better ratio made 3x worse, through gtp compare', () => {
  const temp = tempFolder('gtp-direction-');
  const at = (name: string) => temp.at(name);

  /** The baseline's figures as a run record with the step-time ratio (and its CI) times `factor`. */
  async function runWith(factor: number, name: string): Promise<string> {
    const {
      accepted: _accepted,
      lacks: _lacks,
      ...baseline
    } = JSON.parse(await readFile(join(ROOT, 'baselines', `${PROFILE}.json`), 'utf8')) as Record<string, unknown> & {
      metrics: Array<Record<string, unknown> & { id: string; value: number; ci?: [number, number] }>;
    };
    const metrics = baseline.metrics.map(({ tolerance: _t, ...m }) =>
      m.id === STEP ? { ...m, value: m.value * factor, ...(m.ci ? { ci: [m.ci[0] * factor, m.ci[1] * factor] } : {}), samples: undefined } : m,
    );
    await writeFile(at(name), JSON.stringify({ ...baseline, metrics: JSON.parse(JSON.stringify(metrics)) }));
    return at(name);
  }

  async function compare(factor: number, tag: string) {
    const run = await runWith(factor, `${tag}.json`);
    const out = { junit: at(`${tag}.xml`), smaller: at(`${tag}.smaller.json`), bigger: at(`${tag}.bigger.json`) };
    const result = await cli(['compare', run, '--junit', out.junit, '--gab-smaller', out.smaller, '--gab-bigger', out.bigger], ROOT, { timeoutMs: 120_000 });
    const smaller = gabFileSchema.parse(JSON.parse(await readFile(out.smaller, 'utf8')));
    const bigger = gabFileSchema.parse(JSON.parse(await readFile(out.bigger, 'utf8')));
    const { cases } = await readJunitAsTestReporter(await readFile(out.junit, 'utf8'));
    return { result, smaller, bigger, cases };
  }

  it('3x worse: exit 1, "regressed", a JUnit failure, an alert in the smaller-is-better file; 3x better: none', async () => {
    const same = await compare(1, 'same');
    expect(same.result.code, same.result.stdout + same.result.stderr).toBe(0);
    const worse = await compare(3, 'worse');
    expect(worse.result.code, worse.result.stdout + worse.result.stderr).toBe(1);
    expect(worse.result.stdout).toMatch(new RegExp(`${STEP.replaceAll('.', '\\.')}.*regressed|regressed.*${STEP.replaceAll('.', '\\.')}`, 's'));
    expect(worse.cases.filter((c) => c.result === 'failed').map((c) => c.name)).toEqual([STEP]);
    // The series lives in the smaller-is-better file only; the action alerts at 150% (docs/ci.md).
    const value = (file: typeof same.smaller) => file.find((b) => b.name === STEP)?.value;
    expect(same.bigger.find((b) => b.name === STEP)).toBeUndefined();
    expect(alertRatio(value(same.smaller)!, value(worse.smaller)!, false)).toBeGreaterThan(1.5);

    const better = await compare(1 / 3, 'better');
    expect(better.result.code, better.result.stdout + better.result.stderr).toBe(0);
    expect(better.cases.filter((c) => c.result === 'failed')).toEqual([]);
    expect(alertRatio(value(same.smaller)!, value(better.smaller)!, false)).toBeLessThan(1.5);
  });
});
