// `gtp report` of a kit run's folder from a real GPU: the H200 quick record of 2026-12-04 with
// its three doctor reports beside it (fixtures/runs/h200-2026-12-04/, as results/<time>/ holds
// them). The page renders, and its limit answer and stage headlines set WebGPU's upload rate
// against the Gen5 x16 link and the host memory copy from the doctor reports, saying which binds.
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, ROOT } from '../../test/support/cli.js';
import { tempFolder } from '../../test/support/temp-folder.js';

const FOLDER = join(ROOT, 'fixtures/runs/h200-2026-12-04');
const temp = tempFolder('gtp-kit-folder-');
beforeAll(async () => {
  await mkdir(temp.at('results/2026-12-04T17-45-00-000Z'), { recursive: true });
  await mkdir(temp.at('baselines'));
  for (const f of ['run.json', 'doctor-1.json', 'doctor-2.json', 'doctor-3.json'])
    await copyFile(join(FOLDER, f), temp.at('results/2026-12-04T17-45-00-000Z', f));
});

/** The page's text, tags dropped and entities undone (enough for the few this page uses). */
const text = (html: string) =>
  html
    .replace(/<svg[\s\S]*?<\/svg>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&gt;/g, '>')
    .replace(/&lt;/g, '<')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

describe('gtp report of the H200 kit folder', () => {
  it("renders the page with the three references and which binds; exit 1 for the run's three errors", async () => {
    const run = 'results/2026-12-04T17-45-00-000Z/run.json';
    // An empty baselines folder: the page is judged against nothing, whatever baselines/ holds.
    const result = await cli(['report', run, '--baselines', 'baselines'], temp.path);
    expect(result.stdout).toContain(
      "the machine's upload references (host memory copy, PCIe link) from doctor-1.json, doctor-2.json, doctor-3.json beside the record",
    );
    expect(result.stdout).toMatch(
      /^Report: results\/2026-12-04T17-45-00-000Z\/run\.html \(run results\/\S+\/run\.json; no baseline at baselines\/webgpu-nvidia-h200-x64\.json\)$/m,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^exit 1: 3 errors in the run \(alternatives, training\)/m);
    const html = await readFile(temp.at('results/2026-12-04T17-45-00-000Z/run.html'), 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html.trimEnd()).toMatch(/<\/html>$/);
    const page = text(html);
    expect(page).toContain("How far is each strategy from the device's limit?");
    const binds =
      "that rate (2.17 GB/s) is 0.034 of the Gen5 x16 link (63.0 GB/s, computed from sysfs) and 0.080 of the host memory copy (27.2 GB/s) (from doctor-1.json, doctor-2.json, doctor-3.json, median of 3): the API's staging path binds, not this pipeline (under 0.1 of the host memory copy)";
    expect(page).toContain(`uint8 in dtypes.32x3x224x224 at 1.1x its limit: a limit resting on WebGPU's upload rate; ${binds}.`);
    expect(page).toContain(
      `time over the device's limit (1.0x: at it), mnist-transfer: cpu-normalize 2.5x, device-normalize 3.6x; the limit rests on WebGPU's upload rate; ${binds}`,
    );
  }, 60_000);
});
