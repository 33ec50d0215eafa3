// `gtp doctor --browser chromium` from the real CLI (issue 43 item 6): one quick run whose report
// names Chromium's WebGPU adapter and its limits, says WebGPU and WebGL started, and gives the
// page's tfjs upload rates (positive, GB/s) beside Node's from the same run; and the refusal when
// no Chromium is where --browser-path says (exit 2, what to do). Asserts no time.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { harnessChromiums } from '../../test/support/chromium.js';
import { cli, withEnv } from '../../test/support/cli.js';
import { tempFolder } from '../../test/support/temp-folder.js';
import { doctorReportSchema } from '../doctor/schema.js';

const env = withEnv({ GTP_BROWSER_PATH: '' });
const temp = tempFolder('gtp-doctor-browser-');

describe('gtp doctor --browser chromium', () => {
  it('refuses a --browser-path with no Chromium (exit 2), naming how to install one or name it, before anything starts', async () => {
    const json = temp.at('never.json');
    const missing = await cli(['doctor', '--browser', 'chromium', '--browser-path', '/nonexistent', '--json', json], undefined, { env });
    expect(missing.code, missing.stderr + missing.stdout).toBe(2);
    expect(missing.stderr).toMatch(
      /--browser chromium: \/nonexistent \(--browser-path\) is not an executable file; install Chromium .* or name one with --browser-path PATH/,
    );
    expect(missing.stdout).not.toMatch(/\[ok\]/);
    await expect(readFile(json)).rejects.toThrow(/ENOENT/);
  });

  // setup:system installs Debian's Chromium: a machine without it fails here, not skips.
  it('--quick: the adapter and its limits, WebGPU and WebGL started, the page upload rates beside Node’s, exit 0, no browser left', async () => {
    const before = await harnessChromiums();
    const json = temp.at('doctor.json');
    const run = await cli(['doctor', '--quick', '--browser', 'chromium', '--json', json], undefined, { env, timeoutMs: 180_000 });
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const report = doctorReportSchema.parse(JSON.parse(await readFile(json, 'utf8')));
    expect(report.schemaVersion).toBe(3);
    expect(report.settings.browser).toBe('chromium');
    const browser = report.browser!;
    expect(browser).toMatchObject({ name: 'chromium', lost: null, version: expect.stringMatching(/^\d+\.\d+\.\d+\.\d+$/) });
    // perf's flags give SwiftShader; Chromium leaves its description empty, so it is named by what it is.
    expect(browser.adapter).toMatchObject({ vendor: 'google', architecture: 'swiftshader', name: 'swiftshader', isSoftware: true });
    expect(browser.adapter!.limits.maxBufferSize).toBeGreaterThanOrEqual(256 * 1024 * 1024);
    expect(browser.adapter!.limits.maxStorageBufferBindingSize).toBeGreaterThanOrEqual(128 * 1024 * 1024);
    expect(browser.webgpu).toMatchObject({ started: true, whyNot: null, running: 'webgpu', uploadError: null });
    expect(browser.webgl).toMatchObject({
      started: true,
      whyNot: null,
      running: 'webgl',
      uploadError: null,
      gl: { renderer: expect.stringMatching(/SwiftShader/) },
    });
    // doctor's --quick sizes, each a positive rate in GB/s, in the page on both APIs and in Node.
    const sizes = ['upload.64kib', 'upload.1mib', 'upload.16mib', 'upload.64mib'];
    for (const uploads of [browser.webgpu.uploads, browser.webgl.uploads, browser.node!.uploads]) {
      expect(uploads.map((f) => f.id)).toEqual(sizes);
      for (const figure of uploads) {
        expect(figure.unit).toBe('GB/s');
        expect(figure.value).toBeGreaterThan(0);
      }
    }
    const checks = new Map(report.checks.map((c) => [c.id, c]));
    expect(checks.get('browser.webgpu')?.status).toBe('ok');
    expect(checks.get('browser.webgl')?.status).toBe('ok');
    expect(checks.get('browser.webgpu.upload')?.reason).toMatch(
      /64 MiB \d.*GB\/s; Node \(webgpu, this run\) at 64 MiB: .* GB\/s, the page reaches .* of it; .* of the host memory copy/,
    );
    expect(run.stdout).toMatch(/\[ok\] {3}webgpu in chromium \d+: started; tfjs runs on webgpu \(adapter swiftshader\)/);
    const left = [...(await harnessChromiums())].filter((pid) => !before.has(pid));
    expect(left, 'Chromium processes left behind').toEqual([]);
  }, 200_000);
});
