// `gtp doctor --browser chromium` from the real CLI (issue 43 item 6): the refusal when no
// Chromium is where --browser-path says (exit 2, what to do). Its run in a page is checked where a
// user runs it, from the installed package (src/package/pack.e2e.test.ts). Asserts no time.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { cli, withEnv } from '../../test/support/cli.js';
import { tempFolder } from '../../test/support/temp-folder.js';

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
});
