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

// Issue 51: docs/own-pipeline.md never said that a browser run needs vitest's Playwright provider
// in the user's project; only the first try's refusal gave the install line.
describe("the browser run's two peer dependencies, as the docs and the refusal give them", () => {
  const ROOT = fileURLToPath(new URL('../..', import.meta.url));
  const peers = (JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')) as { peerDependencies: Record<string, string> }).peerDependencies;
  const install = `npm install --save-dev @vitest/browser-playwright@${peers['@vitest/browser-playwright']} playwright@${peers.playwright}`;

  it("docs/own-pipeline.md gives the install line, at package.json's pinned versions, before its first browser run", () => {
    const docs = readFileSync(`${ROOT}/docs/own-pipeline.md`, 'utf8');
    expect(docs).toContain(install);
    expect(docs.indexOf(install)).toBeLessThan(docs.search(/npx gtp \w+ [^\n`]*--browser chromium/));
  });

  it("the refusal without them gives the same line (src/runner/browser.ts's loadBrowserProvider)", () => {
    expect(readFileSync(`${SRC}/runner/browser.ts`, 'utf8')).toContain(`${install} (neither downloads a browser)`);
  });
});
