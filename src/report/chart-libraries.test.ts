import { describe, expect, it } from 'vitest';
import { CHARTS_MISSING, chartLibraries, isMissingPackage } from './chart-libraries.js';

describe('chart libraries (optional peers)', () => {
  it("tells Node's missing-package error from an error inside a package", async () => {
    const name = 'gtp-no-such-package';
    const missing = await import(name).catch((error: unknown) => error);
    expect(isMissingPackage(missing, 'gtp-no-such-package')).toBe(true);
    expect(isMissingPackage(missing, 'vega')).toBe(false);
    expect(isMissingPackage(new Error("Cannot find package 'vega'"), 'vega')).toBe(false);
  });

  it('loads vega and vega-lite where they are installed (this repository: devDependencies)', async () => {
    const libraries = await chartLibraries();
    expect(typeof libraries?.vega.View).toBe('function');
    expect(typeof libraries?.vl.compile).toBe('function');
  });

  it('says in one line what to install', () => {
    expect(CHARTS_MISSING).toBe('charts not drawn: they need the optional packages vega and vega-lite (npm install --save-dev vega@5.33.1 vega-lite@5.9.3)');
  });
});
