// The kit's closing text and KIT.md name commands that exist, as typed in the repository:
// each is parsed by the CLI's own parser (unknown commands and flags are usage errors there).
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nextCommands, nextSteps, recordProfile } from '../../scripts/kit/next-steps.mjs';
import { parseCommandLine } from '../cli/args.js';

const ROOT = resolve(import.meta.dirname, '../..');
// A kit run's folder as it comes back: the H200's quick run with its doctor reports beside it.
const DIR = 'fixtures/runs/h200-2026-12-04';
const RECORD = `${DIR}/run.json`;

/** The gtp arguments of `npm run gtp -- <args>`, after checking that the npm script exists and runs the CLI. */
async function gtpArgs(command: string): Promise<string[]> {
  const scripts = (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const m = /^npm run ([\w:-]+) -- (.+)$/.exec(command);
  expect(m, command).not.toBeNull();
  // exec: npm's signal reaches the CLI itself, no shell between (issue 41).
  expect(scripts[m![1]!]).toBe('exec node --import ./scripts/tsx-tmpdir.mjs --import tsx src/cli/main.ts');
  return m![2]!.split(/\s+/);
}

describe("the kit's closing text", () => {
  it("names the run's folder, record and profile", () => {
    expect(recordProfile(join(ROOT, RECORD))).toBe('webgpu-nvidia-h200-x64');
    expect(recordProfile(join(ROOT, DIR, 'missing.json'))).toBeNull();
    expect(nextSteps(DIR, RECORD, 'webgpu-nvidia-h200-x64').split('\n')).toEqual([
      `Bring ${DIR}/ back to the repository, then:`,
      expect.stringMatching(/^ {2}npm run gtp -- compare fixtures\/runs\/h200-2026-12-04\/run\.json +# judge it/),
      expect.stringMatching(/^ {2}npm run gtp -- baseline fixtures\/runs\/h200-2026-12-04\/run\.json +# accept it/),
      expect.stringMatching(
        /^ {2}npm run gtp -- doctor --write-envelope baselines\/webgpu-nvidia-h200-x64\.doctor\.json --from fixtures\/runs\/h200-2026-12-04\/ +# its profile's doctor envelope$/,
      ),
      expect.stringMatching(/^ {2}npm run gtp -- report fixtures\/runs\/h200-2026-12-04\/run\.json +# rebuild/),
    ]);
  });

  it('every command it names parses as that command, with its flags', async () => {
    const parsed = await Promise.all(nextCommands(DIR, RECORD, 'webgpu-nvidia-h200-x64').map(async ([c]) => parseCommandLine(await gtpArgs(c), {})));
    expect(parsed.map((p) => p.command)).toEqual(['compare', 'baseline', 'doctor', 'report']);
    expect(parsed[2]).toMatchObject({ writeEnvelope: 'baselines/webgpu-nvidia-h200-x64.doctor.json', from: [`${DIR}/`] });
  });

  it('KIT.md names the same commands, and none that is gone', async () => {
    const text = await readFile(join(ROOT, 'scripts/kit/KIT.md'), 'utf8');
    const named = [...text.matchAll(/^npm run .+?(?=\s+#|$)/gm)].map((m) => m[0].trim());
    expect(named).toHaveLength(4);
    for (const command of named) {
      const args = await gtpArgs(command.replaceAll('results/<time>/', `${DIR}/`).replaceAll('<profile>', 'webgpu-nvidia-h200-x64'));
      expect(() => parseCommandLine(args, {})).not.toThrow();
    }
    for (const gone of ['perf:compare', 'make-doctor-envelope']) expect(text).not.toContain(gone);
  });
});
