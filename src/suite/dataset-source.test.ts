import { readdir, writeFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCommandLine, UsageError } from '../cli/args.js';
import type { DatasetSource } from '../data/source.js';
import { DATASET_SOURCES } from '../data/sources.js';
import { canonicalData, defaultRunConfig, type RunConfig, sourceContext } from '../run-config.js';
import { datasetsOf, describeDatasets } from '../runner/perf.js';
import type { ScenarioFile } from '../runner/scenarios.js';
import { useDataset, useGivenData, useSourceSizes } from './session.js';
import { tempFolder } from '../../test/support/temp-folder.js';

/** A data set registered by this test alone: a folder of files, read as their names. */
interface TinyData {
  readonly names: readonly string[];
  readonly take: number;
}
const tinySource: DatasetSource<string, TinyData, { take: number }> = {
  name: 'tiny',
  flags: [{ name: 'tiny-dir', usage: '  --tiny-dir DIR          a folder of tiny files' }],
  given: (flag) => flag('tiny-dir'),
  fixture: 'fixtures/tiny',
  isFixture: (dir, same) => same(dir, 'fixtures/tiny'),
  defaultDescription: 'the tiny fixture (no files)',
  scenarios: ['tiny'],
  describe: async (dir) => `tiny folder (${(await readdir(dir)).length} files)`,
  sizes: { quick: { take: 1 }, full: { take: 2 } },
  load: async (dir, { take }) => ({ names: dir ? (await readdir(dir)).sort() : [], take }),
};
const SOURCES = [...DATASET_SOURCES, tinySource];
const scenario = (id: string): ScenarioFile => ({ number: null, id, kind: 'perf', path: `perf/${id}.perf.ts` });

describe('a data source registered in one place', () => {
  const temp = tempFolder('tiny-source-');
  beforeAll(async () => {
    await Promise.all(['b', 'a', 'c'].map((name) => writeFile(temp.at(name), name)));
  });

  it('runs through args, the run configuration and the session: its flag, description and data', async () => {
    const args = parseCommandLine(['perf', '--tiny-dir', temp.path, '--scale', 'full'], {}, SOURCES);
    if (args.command !== 'perf') throw new Error('not perf');
    expect(args.data).toEqual({ mnist: null, coco: null, kinetics: null, tiny: temp.path });

    const files = [scenario('tiny'), scenario('speedup')];
    expect(files.map((f) => datasetsOf(f, SOURCES))).toEqual([['tiny'], ['mnist']]);
    const datasets = await describeDatasets(args.data, files, sourceContext(args), SOURCES);
    expect(datasets).toEqual({ tiny: 'tiny folder (3 files)', mnist: DATASET_SOURCES[0]!.defaultDescription });

    const config: RunConfig = { backend: 'cpu', requireBackend: null, scale: args.scale, data: args.data, selection: null, datasets };
    expect(useGivenData(tinySource, config)).toBe(temp.path);
    expect(useSourceSizes(tinySource, config)).toEqual({ take: 2 });
    expect(await useDataset(tinySource, config)).toEqual({ names: ['a', 'b', 'c'], take: 2 });
  });

  it('gets its default from the run configuration, and its fixture named by path is that default', () => {
    const config = defaultRunConfig({ backend: 'cpu', requireBackend: null, scale: 'quick' }, SOURCES);
    expect(config.data.tiny).toBeNull();
    expect(config.datasets.tiny).toBe('the tiny fixture (no files)');
    expect(canonicalData({ tiny: './fixtures/tiny/' }, '/work/project', SOURCES)).toMatchObject({ tiny: null });
  });

  it('its flag is unknown where it is not registered', () => {
    expect(() => parseCommandLine(['perf', '--tiny-dir', temp.path], {})).toThrow(UsageError);
  });

  it('a combination a source refuses is a usage error, in its own words', () => {
    expect(() => parseCommandLine(['perf', '--coco-root', temp.path], {})).toThrow(
      new UsageError('--coco-root and --coco-ann go together: the images folder and its instances JSON'),
    );
  });
});
