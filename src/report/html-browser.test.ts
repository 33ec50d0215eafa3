// The HTML report opened from disk in a real browser: Debian's headless Chromium driven by
// playwright-core (no browser download is possible here; setup:system installs chromium and CI
// runs this). Skipped, saying why, only where /usr/bin/chromium is absent.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chartSpecs } from './charts.js';
import { htmlExporter } from './html.js';
import { scenariosOf } from './summary.js';
import { reportTestComparison, reportTestRecord } from '../../test/support/report.js';
import { userTestRecord } from '../../test/support/user-record.js';

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOT = join('results', 'report-screenshot.png');
// The flags the project's facts list for Debian's chromium in a container without a GPU.
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** What the page shows, read in the browser. */
interface PageFacts {
  charts: Array<{ name: string; width: number; height: number; marks: number }>;
  scenarioRows: Record<string, number>;
  kernelTables: number;
  scripts: number;
  errorsShown: boolean;
  /** Top and bottom (px from the page's top) of each answer of the first screen, in page order. */
  answers: Array<{ id: string; heading: string; top: number; bottom: number }>;
  /** The stage chart's panel titles and whether any two of them overlap on screen. */
  stageTitles: string[];
  stageTitlesOverlap: boolean;
  captions: Record<string, string>;
}

/**
 * Opens `html` from disk in a fresh headless Chromium profile at 1280 x 900 and hands `use` the
 * page and the problems seen so far (console errors, page errors, any request off disk).
 */
async function withPage(html: string, use: (page: Page, problems: readonly string[]) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'report-browser-'));
  const file = join(dir, 'report.html');
  await writeFile(file, html);
  // A fresh profile each time (--user-data-dir): nothing cached or remembered from another run.
  const browser = await chromium.launchPersistentContext(join(dir, 'profile'), { executablePath: CHROMIUM, headless: true, args: FLAGS });
  try {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('request', (r) => {
      if (!r.url().startsWith('file:')) problems.push(`network request: ${r.url()}`);
    });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    await use(page, problems);
  } finally {
    await browser.close();
    await rm(dir, { recursive: true, force: true });
  }
}

describe('HTML report in headless Chromium', () => {
  it('opens from disk with no console errors, every chart drawn with its marks, every scenario table present', async (ctx) => {
    if (!existsSync(CHROMIUM)) ctx.skip(`${CHROMIUM} is absent: install Debian's chromium (npm run setup:system) to run the browser test`);
    const record = reportTestRecord();
    const html = await htmlExporter.render({ record, recordPath: 'results/fixture.json', comparison: reportTestComparison(record) }, { color: false });
    await withPage(html, async (page, problems) => {
      const facts = await page.evaluate((): PageFacts => {
        const charts = [...document.querySelectorAll<HTMLElement>('figure.chart')].map((f) => {
          const svg = f.querySelector('svg');
          const box = svg?.getBoundingClientRect();
          // vega draws data as groups of role "mark" (axes, legends and titles have other roles).
          const marks = f.querySelectorAll('g.role-mark > path, g.role-mark > line, g.role-mark > rect').length;
          return { name: f.dataset.chart ?? '', width: box?.width ?? 0, height: box?.height ?? 0, marks };
        });
        const titles = [...document.querySelectorAll<SVGTextElement>('figure[data-chart="stages"] g.role-title-text text')];
        const boxes = titles.map((t) => t.getBoundingClientRect());
        const scenarioRows: Record<string, number> = {};
        for (const t of document.querySelectorAll<HTMLTableElement>('table.metrics')) scenarioRows[t.dataset.scenario ?? ''] = t.tBodies[0]!.rows.length;
        return {
          charts,
          scenarioRows,
          kernelTables: document.querySelectorAll('table.kernel-table').length,
          scripts: document.scripts.length,
          errorsShown: document.querySelector('#errors')?.textContent?.includes('<script>alert(1)</script>') ?? false,
          answers: [...document.querySelectorAll<HTMLElement>('#at-a-glance > section')].map((s) => {
            const box = s.getBoundingClientRect();
            return { id: s.id, heading: s.querySelector('h2')?.textContent ?? '', top: box.top + window.scrollY, bottom: box.bottom + window.scrollY };
          }),
          stageTitles: titles.map((t) => t.textContent ?? ''),
          stageTitlesOverlap: boxes.some((a, i) => boxes.some((b, j) => i < j && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)),
          captions: Object.fromEntries(
            [...document.querySelectorAll<HTMLElement>('figure.chart')].map((f) => [
              f.dataset.chart ?? '',
              (f.querySelector('figcaption .caption') ?? f.closest('.beside')?.querySelector('p.meta'))?.textContent ?? '',
            ]),
          ),
        };
      });

      expect(problems).toEqual([]);
      expect(facts.charts.map((c) => c.name)).toEqual(chartSpecs(record).map((c) => c.name));
      for (const c of facts.charts) {
        expect(c.width, c.name).toBeGreaterThan(100);
        expect(c.height, c.name).toBeGreaterThan(100);
        expect(c.marks, c.name).toBeGreaterThan(0);
      }
      const expected = Object.fromEntries(scenariosOf(record).map((s) => [s, record.metrics.filter((m) => m.scenario === s).length]));
      expect(facts.scenarioRows).toEqual(expected);
      expect(facts.kernelTables).toBe(Object.keys(record.kernelTables ?? {}).length);
      // Text from the record is shown as text, never run.
      expect(facts.scripts).toBe(0);
      expect(facts.errorsShown).toBe(true);
      // The three answers, in order, on the first screen (1280 x 900): the limit chart's top at least.
      expect(facts.answers.map((a) => a.id)).toEqual(['claim', 'regressions', 'limits']);
      expect(facts.answers.map((a) => a.heading)).toEqual([
        "1. Is the article's claim true on this machine?",
        '2. Did anything regress against the baseline?',
        "3. How far is each strategy from the device's limit?",
      ]);
      for (const [a, b] of facts.answers.slice(1).map((x, k) => [facts.answers[k]!, x] as const)) expect(a.bottom).toBeLessThanOrEqual(b.top);
      expect(facts.answers[2]!.top).toBeLessThan(900);
      // Stage chart: one readable title per group, none overlapping another.
      expect(facts.stageTitles).toEqual(['mnist-transfer', 'dtypes.32x3x224x224', 'alternatives.32x224x224x3', 'training']);
      expect(facts.stageTitlesOverlap).toBe(false);
      for (const name of facts.charts.map((c) => c.name)) expect(facts.captions[name], name).toMatch(/clock|computed/);
      expect(await page.locator('td.verdict-regressed').first().isVisible()).toBe(true);

      await mkdir('results', { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
      expect(existsSync(SCREENSHOT)).toBe(true);
    });
  }, 120_000);

  it("a user's run: its first screen shows its own ratios, each with its CI sentence, and a chart of them", async (ctx) => {
    if (!existsSync(CHROMIUM)) ctx.skip(`${CHROMIUM} is absent: install Debian's chromium (npm run setup:system) to run the browser test`);
    const record = userTestRecord();
    const html = await htmlExporter.render({ record, recordPath: 'results/mine.json', comparison: null }, { color: false });
    await withPage(html, async (page, problems) => {
      const screen = await page.evaluate(() => {
        const onScreen = (e: Element | null) => {
          const box = e?.getBoundingClientRect();
          return !!box && box.width > 0 && box.height > 0 && box.top >= 0 && box.top < window.innerHeight;
        };
        const chart = document.querySelector<HTMLElement>('#ratios figure.chart[data-chart="ratios"]');
        const svg = chart?.querySelector('svg') ?? null;
        return {
          answers: [...document.querySelectorAll<HTMLElement>('#at-a-glance > section')].map((s) => s.querySelector('h2')?.textContent ?? ''),
          rows: [...document.querySelectorAll<HTMLTableRowElement>('#ratios table.own-ratios tbody tr')].map((r) => ({
            id: r.cells[1]?.querySelector('code')?.textContent ?? '',
            says: r.cells[4]?.textContent ?? '',
            visible: onScreen(r),
          })),
          chartTop: svg?.getBoundingClientRect().top ?? -1,
          chartVisible: onScreen(svg),
          points: chart?.querySelectorAll('g.role-mark [aria-roledescription="point"]').length ?? 0,
          whiskers: chart?.querySelectorAll('g.mark-rule.role-mark > line').length ?? 0,
        };
      });
      expect(problems).toEqual([]);
      expect(screen.answers).toEqual(["1. What do this run's ratios say?", '2. Did anything regress against the baseline?']);
      expect(screen.rows).toEqual([
        { id: 'rgb-batches.speedup', says: 'device-uint8 faster than host-float32 in this process (CI above 1)', visible: true },
        { id: 'resize.speedup.bilinear-vs-nearest', says: 'bilinear SLOWER than nearest in this process (CI below 1)', visible: true },
        { id: 'resize.cache-hit-gain', says: 'not clearly different from 1 in this process (CI includes 1)', visible: true },
      ]);
      // The chart of them starts on the first screen (1280 x 900): one point per ratio, a whisker each and the rule at 1.
      expect(screen.chartVisible).toBe(true);
      expect(screen.chartTop).toBeLessThan(900);
      expect(screen.points).toBe(3);
      expect(screen.whiskers).toBe(4);
      expect(await page.locator('body').textContent()).not.toMatch(/measured no|article's claim/);
      await mkdir('results', { recursive: true });
      await page.screenshot({ path: join('results', 'report-screenshot-user.png') });
    });
  }, 120_000);
});
