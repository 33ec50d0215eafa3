import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The public API's entries (issue 42): the root `gpu-transfer-perf` is the union of src/api/'s
 * entries, keeps every name it exported before they were split out (semver), and each entry is a
 * package export with its own .d.ts and stays short enough to read. Read syntactically (the
 * TypeScript parser, no type check), so it costs no module load.
 */
const SRC = import.meta.dirname;

/** Every name `gpu-transfer-perf` exported before the split (src/index.ts at 811cc43), values and types. */
const BEFORE = [
  'ARTICLE_BATCH',
  'ARTICLE_DEVICE_VS_HOST_BOUND',
  'ARTICLE_NORMALIZATION',
  'AnyDatasetSource',
  'AnyNormalization',
  'BENCH_OPTIONS',
  'BackendCapabilities',
  'BackendContext',
  'BackendName',
  'Batch',
  'BatchLoader',
  'CLOCK',
  'CROP_MIRROR_NORMALIZE',
  'ChannelNormalization',
  'CocoDataset',
  'CountSource',
  'CropMirrorNormalizeSpec',
  'DATASET_SOURCES',
  'DTYPE_BATCHES',
  'DataFlag',
  'DatasetSource',
  'DeviceSkippedError',
  'DtypeBatch',
  'EncodedBatch',
  'FLOAT16_MIN_NORMAL',
  'FLOAT32_UNIT_ROUNDOFF',
  'GpuClocks',
  'HELD_OUT',
  'HOST_ROUNDINGS',
  'HostPayload',
  'IMAGENET_NORMALIZATION',
  'ImageDataset',
  'ImageFit',
  'ImageFolderSummary',
  'ImageSize',
  'KineticsDataset',
  'LARGE_BATCH_ROUNDS',
  'Labels',
  'LeakCheck',
  'MEDIA_MAX_DIFF',
  'MNIST_SPEEDUP_ID',
  'Measured',
  'MediaSizes',
  'MetricInput',
  'NORMALIZE_ROUNDINGS',
  'NhwcShape',
  'Normalization',
  'PairedOptions',
  'PairedSamples',
  'PixelBatch',
  'Progress',
  'Question',
  'RawBatch',
  'RunConfig',
  'SHUFFLE_SEED',
  'SPLIT_SEED',
  'SWEEP_BATCHES',
  'SWEEP_SIZES',
  'SampledVariant',
  'Scale',
  'ScaleSizes',
  'SegmentationTargets',
  'SourceBatches',
  'StageInput',
  'StageOptions',
  'StagedTransfer',
  'TRAINING_ARMS',
  'TRAINING_SIZES',
  'TRAIN_BATCH',
  'TimedBatch',
  'TrainingResult',
  'TransferCounter',
  'TransferStrategy',
  'TransferTotals',
  'WIRE_DTYPES',
  'WireDtype',
  'adamDriftBound',
  'articleStagedStrategies',
  'benchName',
  'binomialCdf',
  'binomialLowerThreshold',
  'bytesMetric',
  'bytesOfSynced',
  'canTrainConvolutions',
  'centerPixels',
  'cocoLoader',
  'cocoSource',
  'cocoSummaryMetrics',
  'countAndRead',
  'countSynced',
  'countTransfers',
  'cpuNormalize',
  'createSegmentationFcn',
  'createTwoConvCnn',
  'createVideoClassifier',
  'cropMirrorNormalize',
  'cropMirrorNormalizeComposed',
  'cropMirrorNormalizeOnHost',
  'curveMetrics',
  'decodeOnHost',
  'decodeWords',
  'describeStrategyTransfer',
  'describeTrainStepKernels',
  'deviceChannelNormalize',
  'deviceMemory',
  'deviceNormalize',
  'devicePackedNormalize',
  'encodePixels',
  'encodedLargeBatch',
  'encodedMnistBatches',
  'exactMetric',
  'expectSameInput',
  'firstArticleBatch',
  'flatMemoryMetrics',
  'float16BitsToFloat32',
  'float16RoundingBound',
  'fromFloat16Array',
  'gamma',
  'gpuClockMetrics',
  'heldDeviceBytes',
  'hostChannelNormalize',
  'hostProbe',
  'hostProbeId',
  'hostProbeMetric',
  'imageFolderBatches',
  'inputBoundMetrics',
  'itLeavesNoTensors',
  'itTimesMediaPipeline',
  'kineticsLoader',
  'kineticsSource',
  'kineticsSummaryMetrics',
  'loadImageFolder',
  'loadMnistDir',
  'lossAgreement',
  'lossAgreementBound',
  'maxAbsDiff',
  'measureImageFolder',
  'measureShape',
  'measureStages',
  'measureSweep',
  'measureSweepStages',
  'median',
  'memorySnapshot',
  'mnistSource',
  'naiveTfjsNormalize',
  'naiveTfjsStaged',
  'normalizeAgreementBound',
  'normalizeChannelsOnHost',
  'normalizeOnHost',
  'packBytes',
  'packedBytesTransfer',
  'parseShape',
  'parseSize',
  'perEpochMetrics',
  'probabilisticGamma',
  'probeEachRound',
  'profiledTrainStep',
  'qualityMetric',
  'ratioFromPairs',
  'readGpuClocks',
  'recordKernelTable',
  'recordMetrics',
  'releaseBufferPool',
  'resolveCropMirrorNormalize',
  'runTrainingExperiment',
  'sampleInterleaved',
  'sampleOf',
  'samplePairs',
  'scanImageFolder',
  'seededRng',
  'segmentationLoss',
  'sendAndRead',
  'sendMasks',
  'sendPayload',
  'shapeId',
  'stagedToDevice',
  'strategyFor',
  'stratifiedSplit',
  'sweepBatches',
  'sweepMetrics',
  'syncedBench',
  'syntheticBatches',
  'tfDataNormalize',
  'timeMetric',
  'timeSynced',
  'trainingStageMetrics',
  'transferAndRead',
  'twoConvGradientRoundings',
  'twoConvLossRoundings',
  'useBackend',
  'useConfig',
  'useDataset',
  'useGivenData',
  'useMediaSizes',
  'useMnist',
  'useSizes',
  'useSourceSizes',
  'videoLoss',
  'wireByteLength',
  'wireDtypeTransfer',
  'withExtraWork',
];

const parse = (path: string) => ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.ES2022);

/** The names a module exports with `export { a, b } from` and `export type { ... } from`. */
function namedExports(path: string): string[] {
  return parse(path).statements.flatMap((s) =>
    ts.isExportDeclaration(s) && s.exportClause && ts.isNamedExports(s.exportClause) ? s.exportClause.elements.map((e) => e.name.text) : [],
  );
}

const ENTRIES = readdirSync(join(SRC, 'api'))
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
  .map((f) => f.replace(/\.ts$/, ''));

describe('the public entries (src/index.ts, src/api/)', () => {
  it('the root re-exports every entry whole, and nothing else', () => {
    const stars = parse(join(SRC, 'index.ts')).statements.map((s) =>
      ts.isExportDeclaration(s) && !s.exportClause && s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier) ? s.moduleSpecifier.text : s.getText(),
    );
    expect([...stars].sort()).toEqual(ENTRIES.map((e) => `./api/${e}.js`).sort());
    expect([...ENTRIES].sort()).toEqual(['data', 'measure', 'record', 'scenarios', 'transfer']);
  });

  it('together they export every name the root exported before, each name from one entry only', () => {
    const names = ENTRIES.flatMap((e) => namedExports(join(SRC, 'api', `${e}.ts`)));
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(BEFORE));
  });

  it('each is a package export with its own .d.ts built from it (tsconfig.build.json: src -> dist)', () => {
    const manifest = JSON.parse(readFileSync(join(SRC, '../package.json'), 'utf8')) as { exports: Record<string, unknown> };
    for (const e of ENTRIES) expect(manifest.exports[`./${e}`]).toEqual({ types: `./dist/api/${e}.d.ts`, import: `./dist/api/${e}.js` });
    // In a page (vitest's browser mode, a bundler) the root is the page's API: `browser` before `import`, whose key order decides.
    expect(manifest.exports['.']).toEqual({ types: './dist/index.d.ts', browser: './dist/browser.js', import: './dist/index.js' });
    expect(Object.keys(manifest.exports['.'] as object)).toEqual(['types', 'browser', 'import']);
  });

  it('no entry file is over 200 lines', () => {
    const files = ['index.ts', 'kernels.ts', 'vitest.ts', ...ENTRIES.map((e) => `api/${e}.ts`)];
    const long = files.map((f) => [f, readFileSync(join(SRC, f), 'utf8').split('\n').length - 1] as const).filter(([, n]) => n > 200);
    expect(long).toEqual([]);
  });
});
