import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCoco } from '../data/coco/reader.js';
import { datasetMismatch } from '../results/baseline.js';
import { cocoSource } from '../data/coco/source.js';
import { ON_PATH } from '../data/source.js';
import { defaultRunConfig, type DataSources } from '../run-config.js';
import { describeDatasets, RunInputError, scenarioFiles } from './perf.js';

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
  let dir = '';
  const training = scenarioFiles(['training']);
  const train = ['train-images-idx3-ubyte', 'train-labels-idx1-ubyte'];
  const copyInto = async (sub: string, names: readonly string[]) => {
    const at = await mkdtemp(join(dir, `${sub}-`));
    for (const name of names) await copyFile(join('fixtures/mnist-idx', name), join(at, name));
    return at;
  };
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gtp-describe-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

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
