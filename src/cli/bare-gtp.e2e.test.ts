// A bare `gtp` (no command, no flag) lists the commands and exits 2, measuring nothing (issue 41,
// item 7): it used to start the whole suite of perf files. `npm run perf` names perf itself.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, ROOT } from '../../test/support/cli.js';

describe('a bare gtp', () => {
  it('lists the commands on stderr and exits 2; nothing measured', async () => {
    const { code, stdout, stderr } = await cli([]);
    expect(stderr).toMatch(/^error: no command given\nUsage /);
    expect(stderr).toMatch(/ doctor /);
    expect(`${stdout}${stderr}`).not.toContain('[gpu-transfer-perf] backend:');
    expect(code).toBe(2);
  });

  it('npm run perf still names the perf command', () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.perf).toBe('exec node --import tsx src/cli/main.ts perf');
  });
});
