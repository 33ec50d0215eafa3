// docs/ci.md's snippets as a user copies them, one at a time (issue 40, item 7): each YAML block
// parses; every `env.X` it reads is set in the same block; each github-action-benchmark step is
// guarded by hashFiles of the file it reads (gtp writes none where a direction is empty), reads the
// file the gtp line writes and names the readers' options; each action-junit-report step names
// detailed_summary, require_tests and fail_on_failure; each gtp command line parses as the CLI
// parses it. Nothing is run or fetched: the fleet recipe's steps run in src/package/pack.e2e.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../../test/support/cli.js';
import { parseCommandLine } from './args.js';

type Step = { uses?: string; run?: string; if?: string; with?: Record<string, unknown>; env?: Record<string, unknown>; name?: string };

const text = readFileSync(join(ROOT, 'docs/ci.md'), 'utf8');
const blocks = [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);

/** A block's steps: a list of steps, or every job's steps of a workflow. */
function stepsOf(doc: unknown): Step[] {
  if (Array.isArray(doc)) return doc as Step[];
  const jobs = (doc as { jobs?: Record<string, { steps?: Step[] }> }).jobs ?? {};
  return Object.values(jobs).flatMap((j) => j.steps ?? []);
}

/** The gtp command lines of a run: script, each as argv after `npx gtp`, up to a shell operator. */
function gtpLines(run: string): string[][] {
  return run.split('\n').flatMap((line) => {
    const at = line.indexOf('npx gtp ');
    if (at < 0) return [];
    const command = line.slice(at + 'npx gtp '.length).split(/\s(\|\||&&|;|>)/)[0]!;
    return [command.match(/"[^"]*"|\S+/g)!.map((w) => w.replace(/^"|"$/g, ''))];
  });
}

describe("docs/ci.md's snippets, each copied alone", () => {
  it('holds the snippets this test reads', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(3);
  });

  it.each(blocks.map((b, i) => [i, b] as const))('snippet %i parses, and sets every env.X it reads', (_i, block) => {
    const steps = stepsOf(parse(block));
    expect(steps.length).toBeGreaterThan(0);
    const read = new Set([...block.matchAll(/\benv\.([A-Z_][A-Z0-9_]*)/g)].map((m) => m[1]!));
    const set = new Set([
      ...[...block.matchAll(/echo "([A-Z_][A-Z0-9_]*)=[^\n]*>> "\$GITHUB_ENV"/g)].map((m) => m[1]!),
      ...[...block.matchAll(/^\s*([A-Z_][A-Z0-9_]*):/gm)].map((m) => m[1]!),
    ]);
    expect([...read].filter((name) => !set.has(name))).toEqual([]);
  });

  it.each(blocks.map((b, i) => [i, b] as const))("snippet %i: the readers' steps read what gtp writes, guarded and with their options", (_i, block) => {
    const steps = stepsOf(parse(block));
    const written = new Set(
      steps
        .flatMap((s) => (s.run ? gtpLines(s.run) : []))
        .flatMap((argv) => argv.filter((_w, i) => i > 0 && /^--(gab-bigger|gab-smaller|junit|bmf)$/.test(argv[i - 1]!))),
    );
    for (const step of steps.filter((s) => s.uses?.startsWith('benchmark-action/github-action-benchmark@'))) {
      const file = String(step.with?.['output-file-path']);
      expect(written, `${file} is written by a gtp line of the snippet`).toContain(file);
      expect(step.if, 'guarded: gtp writes no file where a run has nothing of its direction').toContain(`hashFiles('${file}')`);
      expect(String(step.with?.name)).toMatch(/\$\{\{ env\.PERF_PROFILE \}\}/);
      for (const option of ['external-data-json-path', 'summary-always', 'alert-threshold', 'fail-threshold'])
        expect(step.with, option).toHaveProperty([option]);
      expect(String(step.with?.tool)).toBe(file.includes('bigger') ? 'customBiggerIsBetter' : 'customSmallerIsBetter');
    }
    for (const step of steps.filter((s) => s.uses?.startsWith('mikepenz/action-junit-report@'))) {
      for (const option of ['detailed_summary', 'require_tests', 'fail_on_failure']) expect(step.with?.[option], option).toBe(true);
    }
  });

  it('every gtp command line of a snippet parses as the CLI parses it', () => {
    const lines = blocks.flatMap((b) => stepsOf(parse(b)).flatMap((s) => (s.run ? gtpLines(s.run) : [])));
    expect(lines.length).toBeGreaterThan(2);
    for (const argv of lines) {
      const resolved = argv.map((w) => w.replace(/\$\{GITHUB_BASE_REF\}/g, 'main'));
      expect(() => parseCommandLine(resolved, {}), argv.join(' ')).not.toThrow();
    }
  });
});
