import { copyFile, mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCoco } from '../data/coco/reader.js';
import { datasetMismatch, makeBaseline } from '../results/baseline.js';
import { compareWithBaseline, EXIT } from '../results/compare.js';
import { fingerprintImageFolder } from '../data/image-folder/fingerprint.js';
import { scanImageFolder } from '../data/image-folder/layout.js';
import type { DatasetSource } from '../data/source.js';
import { datasetsRead, useDataset } from '../suite/session.js';
import { testRunRecord } from '../../test/support/run-record.js';
import { cocoSource } from '../data/coco/source.js';
import { ON_PATH } from '../data/source.js';
import { defaultRunConfig, type DataSources, type Question, type RunConfig } from '../run-config.js';
import { describeDatasets, RunInputError, scenarioFiles } from './perf.js';
import { describeQuestion } from './questions.js';
import { recordedDatasets } from './reporter.js';
import { tempFolder } from '../../test/support/temp-folder.js';

const NO_DATA: DataSources = { mnist: null, coco: null, kinetics: null };
const ODD = { root: 'fixtures/coco-odd/images', annotations: 'fixtures/coco-odd/annotations/instances.json' };
const embedded = defaultRunConfig({ backend: 'auto', requireBackend: null, scale: 'quick' }).datasets;

describe('describeDatasets: COCO', () => {
  it('counts what the scenarios count: a truncated image is left out of the description as out of the metrics', async () => {
    const out = await describeDatasets({ ...NO_DATA, coco: ODD }, scenarioFiles(['coco']), ON_PATH);
    // The COCO scenarios read the data with loadCoco's default (every image decoded).
    const { summary } = await loadCoco(ODD);
    expect(summary.skippedByReason['corrupt-image']).toBe(1);
    expect(out.coco).toBe(`COCO ${ODD.annotations} (${summary.images} images, ${summary.annotations} annotations, ${summary.categories} categories)`);
    expect(out.coco).toContain('(4 images, 4 annotations, 2 categories)');
  });

  it('describes the default fixture named by its paths as the embedded data, so a baseline compares with it', async () => {
    for (const coco of [cocoSource.fixture, { root: './fixtures/coco/images/', annotations: join(process.cwd(), cocoSource.fixture.annotations) }]) {
      const out = await describeDatasets({ ...NO_DATA, coco }, scenarioFiles(['coco']), ON_PATH);
      expect(out.coco).toBe(cocoSource.defaultDescription);
      expect(datasetMismatch(embedded, out)).toBeNull();
    }
  });

  it("says the embedded fixture's true counts", async () => {
    const { summary } = await loadCoco(cocoSource.fixture);
    expect(cocoSource.defaultDescription).toContain(`${summary.images} images, ${summary.annotations} annotations, ${summary.categories} categories`);
  });
});

describe('describeDatasets: MNIST idx files', () => {
  const temp = tempFolder('gtp-describe-');
  const training = scenarioFiles(['training']);
  const train = ['train-images-idx3-ubyte', 'train-labels-idx1-ubyte'];
  const copyInto = async (sub: string, names: readonly string[]) => {
    const at = await mkdtemp(temp.at(`${sub}-`));
    for (const name of names) await copyFile(join('fixtures/mnist-idx', name), join(at, name));
    return at;
  };

  it('refuses up front, naming the file, a folder without the t10k files when training is selected', async () => {
    const only = await copyInto('train-only', train);
    const error = (await describeDatasets({ ...NO_DATA, mnist: only }, training, ON_PATH).then(
      () => null,
      (e: unknown) => e,
    )) as Error;
    expect(error).toBeInstanceOf(RunInputError);
    expect(error.message).toMatch(
      /^the training scenario holds out the MNIST test split \(t10k files\): .*found neither t10k-images-idx3-ubyte nor t10k-images-idx3-ubyte\.gz/,
    );
    expect(error.message).not.toContain('\n');
    // Scenarios that read only the train split do not need them.
    const out = await describeDatasets({ ...NO_DATA, mnist: only }, scenarioFiles(['memory']), ON_PATH);
    expect(out.mnist).toBe('MNIST idx files, train split (100 images)');
  });

  it('refuses a truncated t10k .gz up front, naming it', async () => {
    const cut = await copyInto('cut', [...train, 't10k-labels-idx1-ubyte.gz']);
    const gz = await readFile('fixtures/mnist-idx/t10k-images-idx3-ubyte.gz');
    await writeFile(join(cut, 't10k-images-idx3-ubyte.gz'), gz.subarray(0, gz.length - 4000));
    await expect(describeDatasets({ ...NO_DATA, mnist: cut }, training, ON_PATH)).rejects.toThrow(
      /t10k-images-idx3-ubyte\.gz: not a valid gzip file \(unexpected end of file\)/,
    );
  });

  it('reads a complete folder, described by its train split whatever the selection', async () => {
    const out = await describeDatasets({ ...NO_DATA, mnist: 'fixtures/mnist-idx' }, training, ON_PATH);
    expect(out.mnist).toBe('MNIST idx files, train split (100 images)');
  });

  it("reads video with the run's tools (RunConfig.videoTools, from FFMPEG_PATH), not this process's environment", async () => {
    const tools = { videoTools: { ffmpeg: '/nonexistent/bin/ffmpeg', ffprobe: null } };
    const kinetics = { ...NO_DATA, kinetics: 'fixtures/kinetics' };
    await expect(describeDatasets(kinetics, scenarioFiles(['kinetics']), tools)).rejects.toThrow(
      /ffmpeg not found: cannot run "\/nonexistent\/bin\/ffmpeg" \(ENOENT; FFMPEG_PATH or PATH\)/,
    );
    expect(await describeDatasets(kinetics, scenarioFiles(['kinetics']), ON_PATH)).toEqual({ kinetics: expect.stringMatching(/Kinetics fixture/) });
  });
});

describe("a run record's datasets: only what the run read", () => {
  const temp = tempFolder('gtp-question-data-');
  /** A 2x2 binary PPM (P6) of one grey level: a real image the reader decodes. */
  const ppm = (level: number) => Buffer.concat([Buffer.from('P6\n2 2\n255\n'), Buffer.alloc(12, level)]);
  const question = (root: string): Question => ({ kind: 'image-folder', root, size: { height: 4, width: 4 }, fit: 'resize', batchSize: 2 });
  /** The run record of a question run on `datasets`, with one exact metric that depends on the data. */
  const run = (datasets: Record<string, string>) =>
    testRunRecord([{ id: 'image-folder.upload-bytes.device-normalize', scenario: 'image-folder', kind: 'exact', value: 96, unit: 'B' }], {
      selection: ['questions/image-folder.perf.ts'],
      datasets,
    });
  const judge = (now: Record<string, string>, before: Record<string, string>) =>
    compareWithBaseline(run(now), makeBaseline(run(before), 'before.json', {}), { allowProfileMismatch: false, gateTiming: false, spread: null });

  beforeAll(async () => {
    for (const [file, level] of [
      ['cats/a.ppm', 10],
      ['dogs/b.ppm', 20],
    ] as const) {
      await mkdir(temp.at(file, '..'), { recursive: true });
      await writeFile(temp.at(file), ppm(level));
    }
  });

  it('an --image-folder question lists its folder alone: path, file and class counts, fingerprint', async () => {
    const datasets = await describeQuestion(question(temp.path));
    const fingerprint = await fingerprintImageFolder(await scanImageFolder(temp.path));
    expect(datasets).toEqual({ 'image-folder': `ImageFolder ${temp.path} (2 image files in 2 classes, sha256 ${fingerprint}), resize to 4x4, batch 2` });
    // The record keeps it alone, whatever else the test process had loaded.
    const config = { question: question(temp.path), datasets };
    expect(recordedDatasets(config, [{ mnist: embedded.mnist! }, undefined])).toEqual(datasets);
  });

  it('an unchanged folder compares as the same data; one file added or edited is different data, nothing judged', async () => {
    const before = await describeQuestion(question(temp.path));
    expect(await describeQuestion(question(temp.path))).toEqual(before);
    const same = judge(await describeQuestion(question(temp.path)), before);
    expect(same).toMatchObject({ refused: null, exitCode: EXIT.pass });
    expect(same.verdicts.map((v) => [v.id, v.verdict])).toEqual([['image-folder.upload-bytes.device-normalize', 'pass']]);

    await writeFile(temp.at('dogs/b.ppm'), ppm(21)); // same size, same names: only the contents differ
    const edited = await describeQuestion(question(temp.path));
    expect(edited['image-folder']).toContain('(2 image files in 2 classes, sha256 ');
    expect(edited).not.toEqual(before);
    const refused = judge(edited, before);
    expect(refused).toMatchObject({ verdicts: [], exitCode: EXIT.noBaseline });
    expect(refused.refused).toBe(
      `different data: the baseline read ${before['image-folder']} as image-folder data and this run ${edited['image-folder']}; its metrics depend on the data, so none is judged against this baseline`,
    );

    await writeFile(temp.at('cats/c.ppm'), ppm(30));
    const added = await describeQuestion(question(temp.path));
    expect(added['image-folder']).toContain('(3 image files in 2 classes, sha256 ');
    expect(judge(added, edited)).toMatchObject({ refused: expect.stringMatching(/^different data: /), exitCode: EXIT.noBaseline });
  });

  it("a user's perf files list the data sets their process loaded, and none when they loaded none", () => {
    // The command line describes what the files may read (MNIST for a file no source names)...
    const config = { datasets: { mnist: embedded.mnist! } };
    // ...the record keeps only what a file loaded through useDataset (examples/own-pipeline: nothing).
    expect(recordedDatasets(config, [undefined, {}])).toEqual({});
    expect(recordedDatasets(config, [{}, { mnist: embedded.mnist! }])).toEqual({ mnist: embedded.mnist });
    // A user's own source, never described up front, is kept in its own words, after the described ones.
    expect(recordedDatasets(config, [{ photos: 'my photos' }, { mnist: embedded.mnist! }])).toEqual({ mnist: embedded.mnist, photos: 'my photos' });
    expect(Object.keys(recordedDatasets(config, [{ photos: 'my photos' }, { mnist: embedded.mnist! }]))).toEqual(['mnist', 'photos']);
  });

  it('the session notes each data set once it is loaded, in the words the command line gave it', async () => {
    const named = `tiny-${Date.now()}`;
    const tiny: DatasetSource<string, string[], null> = {
      name: named,
      flags: [],
      given: () => null,
      fixture: null,
      isFixture: () => false,
      defaultDescription: 'the tiny default (no files)',
      scenarios: [named],
      describe: async () => 'described up front',
      sizes: null,
      load: async (given) => (given ? readdir(given) : []),
    };
    const config: RunConfig = {
      backend: 'cpu',
      requireBackend: null,
      scale: 'quick',
      data: { [named]: temp.path },
      selection: null,
      datasets: { [named]: 'as the command line said' },
    };
    expect(datasetsRead()[named]).toBeUndefined();
    expect(await useDataset(tiny, config)).toEqual(['cats', 'dogs']);
    expect(datasetsRead()[named]).toBe('as the command line said');
    // Named with flags but not described up front (no selected scenario declared it): described
    // here as it would have been; not named: its default's words.
    const given = { ...tiny, name: `${named}-given` };
    const absent = { ...tiny, name: `${named}-default` };
    const bare: RunConfig = { ...config, data: { [given.name]: temp.path }, datasets: {} };
    await useDataset(given, bare);
    await useDataset(absent, bare);
    expect(datasetsRead()).toMatchObject({ [given.name]: 'described up front', [absent.name]: 'the tiny default (no files)' });
  });
});
