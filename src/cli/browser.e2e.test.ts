// The browser host (issue 43) from the real CLI: what it refuses up front (exit 2, no browser
// started), and one lean run in headless Chromium (one launch, webgpu, the bytes scenario only):
// the bytes exact, what tfjs runs on read back into the profile, and no Chromium left behind.
import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { cli, withEnv } from '../../test/support/cli.js';
import { runRecordSchema } from '../results/schema.js';
import { tempFolder } from '../../test/support/temp-folder.js';

const env = withEnv({ PERF_REQUIRE_BASELINE: '', PERF_GATE_TIMING: '', GTP_BROWSER_PATH: '' });

/** Live (not zombie) processes started with the harness's Chromium flags: browsers this run would leave behind. */
async function harnessChromiums(): Promise<Set<number>> {
  const found = new Set<number>();
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const cmdline = await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes('--enable-unsafe-swiftshader') && cmdline.includes('--use-angle=swiftshader')) found.add(Number(name));
  }
  return found;
}

const temp = tempFolder('gtp-browser-');

describe('gtp perf --browser', () => {
  it('refuses what it cannot run before anything starts (exit 2, saying what to do)', async () => {
    const firefox = await cli(['perf', '--browser', 'firefox', '--out', temp.at('never.json')], undefined, { env });
    expect(firefox.code, firefox.stderr).toBe(2);
    expect(firefox.stderr).toMatch(/--browser firefox: not supported; supported: chromium/);
    const missing = await cli(['perf', '--browser', 'chromium', '--browser-path', temp.at('no-chromium')], undefined, { env });
    expect(missing.code, missing.stderr).toBe(2);
    expect(missing.stderr).toMatch(/no-chromium \(--browser-path\) is not an executable file; install Chromium .* or name one with --browser-path/);
    const webgl = await cli(['perf', '--backend', 'webgl', '--out', temp.at('never.json')], undefined, { env });
    expect(webgl.code, webgl.stderr).toBe(2);
    expect(webgl.stderr).toMatch(/--backend webgl runs in a browser only: add --browser chromium/);
  });

  // setup:system installs Debian's Chromium: a machine without it fails here, not skips.
  it('runs the bytes scenario in Chromium on webgpu: the article bytes exact, webgpu read back, no browser left behind', async () => {
    const before = await harnessChromiums();
    const out = temp.at('run.json');
    const run = await cli(['perf', '--browser', 'chromium', '--backend', 'webgpu', '--scenario', 'memory', '--out', out], undefined, {
      env,
      timeoutMs: 240_000,
    });
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const record = runRecordSchema.parse(JSON.parse(await readFile(out, 'utf8')));
    // What tfjs ran on, read back in the page, is what the profile says; the browser names the profile.
    expect(record.profile?.backend).toBe('webgpu');
    expect(record.profile?.id).toMatch(/^webgpu-chromium-\d+-swiftshader-[a-z0-9-]+-\d+c-x64$/);
    expect(record.profile?.versions.chromium).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    const value = (id: string) => record.metrics.find((m) => m.id === id)?.value;
    expect(value('browser-mnist.bytes.cpu-normalize')).toBe(200_704);
    expect(value('browser-mnist.bytes.device-normalize')).toBe(50_176);
    expect(record.errors).toEqual([]);
    const left = [...(await harnessChromiums())].filter((pid) => !before.has(pid));
    expect(left, 'Chromium processes left behind').toEqual([]);
  }, 300_000);
});
