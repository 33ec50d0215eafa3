// Article section 8: Kinetics video classification. The reader indexes clips as torchvision's
// VideoClips does (exact counts, recorded), both strategies give the same model input from one
// batch of real decoded clips, the bytes on the wire are exact (1 vs 4 per value), and one train
// step of a small (2+1)D classifier gives the same loss fed either way.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  LeakCheck,
  canTrainConvolutions,
  createVideoClassifier,
  videoLoss,
  qualityMetric,
  itLeavesNoTensors,
  kineticsLoader,
  kineticsSummaryMetrics,
  expectSameInput,
  MEDIA_MAX_DIFF,
  profiledTrainStep,
  recordKernelTable,
  recordMetrics,
  useBackend,
  useMediaSizes,
  IMAGENET_NORMALIZATION,
  deviceChannelNormalize,
  hostChannelNormalize,
  type BackendContext,
  type KineticsDataset,
  type TimedBatch,
  type StagedTransfer,
} from 'gpu-transfer-perf';

let context: BackendContext;
let dataset: KineticsDataset;
let first: TimedBatch<Int32Array>;
let strategies: [StagedTransfer, StagedTransfer];
let leaks: LeakCheck;

beforeAll(async () => {
  context = await useBackend();
  const kinetics = await kineticsLoader();
  dataset = kinetics.dataset;
  first = (await kinetics.loader.stream().next()).value!;
  strategies = [hostChannelNormalize(context, IMAGENET_NORMALIZATION), deviceChannelNormalize(context, IMAGENET_NORMALIZATION)];
  leaks = new LeakCheck();
});

describe('Kinetics video classification (section 8)', () => {
  it('indexes clips as torchvision VideoClips does: F - 31 clips per video of F frames, none for shorter ones', async ({ task }) => {
    const s = dataset.summary;
    const perVideo = s.perClass.reduce((sum, c) => sum + c.clips, 0);
    expect(perVideo).toBe(s.clips);
    expect(s.clips).toBeGreaterThan(0);
    for (const v of s.shortVideos) expect(v.frames).toBeLessThan(s.framesPerClip);
    await recordMetrics(task, ...kineticsSummaryMetrics(dataset));
  });

  it('collates clips into one contiguous [B,T,H,W,3] uint8 batch with class labels', () => {
    const { batch, frames, height, width } = useMediaSizes().kinetics;
    expect(first.batch.shape).toEqual([batch, frames, height, width, 3]);
    expect(first.batch.pixels.buffer.byteLength).toBe(batch * frames * height * width * 3);
    expect(first.batch.targets).toHaveLength(batch);
    for (const label of first.batch.targets) expect(label).toBeLessThan(dataset.classes.length);
  });

  it('gives the same normalized input both ways, sending 1 byte per value instead of 4', async ({ task }) => {
    const { pixels, shape } = first.batch;
    const { diff, reads } = await expectSameInput(context, strategies, pixels, shape);
    expect(reads[0]!.bytes.dataBytes).toBe(pixels.length * 4);
    expect(reads[1]!.bytes.dataBytes).toBe(Math.ceil(pixels.length / 4) * 4);
    await recordMetrics(
      task,
      qualityMetric(
        'kinetics.max-abs-diff',
        diff,
        { max: MEDIA_MAX_DIFF },
        { detail: 'largest |cpu-normalize - device-normalize| over one batch of ImageNet-normalized clips, both read back from the device' },
      ),
    );
  });

  it('trains one step of a small (2+1)D classifier to the same loss fed either way, and keeps its kernel tables', async ({ task }) => {
    if (!canTrainConvolutions('Conv3DBackpropFilterV2')) {
      console.info(`[gpu-transfer-perf] ${context.name} has no Conv3DBackpropFilterV2 kernel: the Kinetics train step is not run here`);
      return;
    }
    const { frames, height, width, trainBatch } = useMediaSizes().kinetics;
    const classes = dataset.classes.length;
    const shape = [trainBatch, frames, height, width, 3];
    const pixels = first.batch.pixels.subarray(0, trainBatch * frames * height * width * 3);
    const labels = first.batch.targets.subarray(0, trainBatch);
    const steps = [];
    for (const t of strategies) {
      const build = () => createVideoClassifier(frames, height, width, classes);
      steps.push(
        await profiledTrainStep(
          t,
          build,
          pixels,
          shape,
          (model, x) => videoLoss(model, x, labels, classes),
          `one Adam step of the (2+1)D classifier on [${shape.join(',')}]`,
        ),
      );
    }
    const [host, device] = steps as [(typeof steps)[0], (typeof steps)[0]];
    expect(Number.isFinite(host.loss)).toBe(true);
    const gap = Math.abs(host.loss - device.loss) / Math.abs(host.loss);
    expect(gap).toBeLessThanOrEqual(1e-5);
    await recordKernelTable(task, 'kinetics-cpu-normalize-train-step', host.table);
    await recordKernelTable(task, 'kinetics-device-normalize-train-step', device.table);
    await recordMetrics(
      task,
      qualityMetric(
        'kinetics.train-step-loss-gap',
        gap,
        { max: 1e-5 },
        { detail: `|loss(cpu-normalize) - loss(device-normalize)| / |loss| after one Adam step from the same seeded weights (loss ${host.loss.toFixed(5)})` },
      ),
    );
  });

  itLeavesNoTensors(() => leaks);
});
