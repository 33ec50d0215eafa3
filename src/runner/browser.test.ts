import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { browserOptimizeDeps, HARNESS_PURE_IMPORTS } from './browser.js';

const SRC = fileURLToPath(new URL('..', import.meta.url));

/** Every `from 'zod...'` / `from 'pure-rand...'` specifier in the harness's own (non-test) sources. */
function pureImportsInSources(): string[] {
  const found = new Set<string>();
  for (const entry of readdirSync(SRC, { recursive: true, encoding: 'utf8' })) {
    if (!entry.endsWith('.ts') || entry.endsWith('.test.ts')) continue;
    for (const match of readFileSync(`${SRC}/${entry}`, 'utf8').matchAll(/from '((?:zod|pure-rand)(?:\/[^']*)?)'/g)) found.add(match[1]!);
  }
  return [...found].sort();
}

describe('browserOptimizeDeps', () => {
  it('pre-bundles, in a user project, each pure package specifier the harness imports (a missing one is served raw to the page)', () => {
    expect([...HARNESS_PURE_IMPORTS].sort()).toEqual(pureImportsInSources());
    const installed = browserOptimizeDeps('installed');
    expect(installed.exclude).toEqual(['gpu-transfer-perf']);
    for (const id of HARNESS_PURE_IMPORTS) expect(installed.include).toContain(`gpu-transfer-perf > ${id}`);
    expect(installed.include).toContain('@tensorflow/tfjs-core');
  });

  it('excludes nothing where the page imports the sources (this repository)', () => {
    expect(browserOptimizeDeps('sources').exclude).toBeUndefined();
  });
});
