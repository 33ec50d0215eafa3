// `--help` and a refused command line start no device library: the CLI's entry imports only light
// modules and each command loads its runner (tfjs, Dawn, vitest, sharp, the chart renderers) when
// it measures or writes (issue 42: a refusal costs a Node start, about 0.3 s, not the harness's
// 1.2-2 s). Checked by the packages the real CLI loads, recorded by a module hook in the child.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { cli, withEnv } from '../../test/support/cli.js';
import { tempFolder } from '../../test/support/temp-folder.js';

/** Packages that start a device, a test runner, a decoder or a chart: none of them before a refusal. */
const HEAVY = /^(@tensorflow\/|webgpu$|vitest$|@vitest\/|vite$|sharp$|vega|playwright)/;

/** A module hook (node --import) that appends each package the process resolves to $GTP_LOADED_LOG. */
const HOOK = `data:text/javascript,${encodeURIComponent(`
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const found = await next(specifier, context);
  const name = found.url.match(/node_modules\\\\/((@[^/]+\\\\/)?[^/]+)/);
  if (name) appendFileSync(process.env.GTP_LOADED_LOG, name[1] + '\\\\n');
  return found;
}\`));`)}`;

const dir = tempFolder('gtp-light-start-');

/** The packages the CLI loaded for `args`, with its exit code. */
async function loaded(args: readonly string[], name: string): Promise<{ code: number; packages: Set<string>; stderr: string }> {
  const log = dir.at(`${name}.log`);
  const { code, stderr } = await cli(args, undefined, { env: withEnv({ NODE_OPTIONS: `--import=${HOOK}`, GTP_LOADED_LOG: log }) });
  const packages = new Set((await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean));
  return { code, packages, stderr };
}

describe('a CLI start that measures nothing loads no device library', () => {
  it.each([
    ['--help', ['--help'], 0],
    ['perf --help', ['perf', '--help'], 0],
    ['an unknown flag', ['perf', '--no-such-flag'], 2],
    ['a bad backend', ['perf', '--backend', 'gpu'], 2],
    ['a record that is not there', ['compare', 'no-such-run.json'], 2],
    ['doctor onto a file of another kind', ['doctor', '--json', 'README.md'], 2],
    ['doctor in an unsupported browser', ['doctor', '--browser', 'firefox'], 2],
  ] as const)('%s', async (name, args, exit) => {
    const { code, packages, stderr } = await loaded(args, name.replace(/\W+/g, '-'));
    expect(code, stderr).toBe(exit);
    // The hook ran (the check itself can fail): the CLI resolves at least its argument parser.
    expect(packages.size, 'no package recorded: the hook did not run').toBeGreaterThan(0);
    expect([...packages].filter((p) => HEAVY.test(p))).toEqual([]);
  });

  it('a command that measures does load them (the hook sees a device library when one loads)', async () => {
    const { packages } = await loaded(['doctor', '--quick', '--json', dir.at('doctor.json')], 'doctor-quick');
    expect([...packages].some((p) => p.startsWith('@tensorflow/'))).toBe(true);
  });
});
