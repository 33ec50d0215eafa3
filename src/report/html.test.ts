import { describe, expect, it } from 'vitest';
import { testRunRecord } from '../results/run-record.fixture.js';
import { escapeHtml, htmlExporter, scenariosOf } from './html.js';
import { reportTestComparison, reportTestRecord } from './report.fixture.js';

describe('htmlExporter', () => {
  it('escapes text from the record', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('renders one self-contained page: no scripts, no external references, inline SVG charts', async () => {
    const record = reportTestRecord();
    const html = await htmlExporter.render({ record, recordPath: 'results/x.json', comparison: reportTestComparison(record) }, { color: false });
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<script|<link|src="http|href="http/i);
    expect(html).toContain("default-src 'none'");
    expect((html.match(/<figure class="chart"/g) ?? []).length).toBe(5);
    expect((html.match(/<svg/g) ?? []).length).toBeGreaterThanOrEqual(5);
    for (const s of scenariosOf(record)) expect(html).toContain(`data-scenario="${s}"`);
    expect(html).toContain('ffmpeg not found &lt;script&gt;');
    expect(html).toContain('class="verdict-regressed"');
    expect(html).toContain('In the baseline, not in this run (1)');
    expect(html).toContain('Conv2DBackpropFilter');
  });

  it('says when there is no baseline, and renders a run with no metrics', async () => {
    const html = await htmlExporter.render({ record: testRunRecord([]), recordPath: null, comparison: null }, { color: false });
    expect(html).toContain('No baseline for this profile: nothing compared.');
    expect(html).not.toContain('<figure');
  });
});
