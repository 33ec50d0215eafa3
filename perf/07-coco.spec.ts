// Article section 7: COCO image segmentation. The reader reads the data the way pycocotools
// does (exact counts, recorded), both strategies give the same model input from one batch of
// real decoded images, the bytes on the wire are exact (1 vs 4 per value; masks as bytes in
// both), and one train step of a small FCN gives the same loss fed either way.
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  LeakCheck,
  createSegmentationFcn,
  segmentationLoss,
  canTrainConvolutions,
  bytesMetric,
  qualityMetric,
  itLeavesNoTensors,
  cocoLoader,
  cocoSummaryMetrics,
  expectSameInput,
  MEDIA_MAX_DIFF,
  profiledTrainStep,
  countAndRead,
  recordKernelTable,
  recordMetrics,
  useBackend,
  useMediaSizes,
  IMAGENET_NORMALIZATION,
  deviceChannelNormalize,
  hostChannelNormalize,
  sendMasks,
  type BackendContext,
  type SegmentationTargets,
  type CocoDataset,
  type TimedBatch,
  type StagedTransfer,
} from 'gpu-transfer-perf';

let context: BackendContext;
let dataset: CocoDataset;
let first: TimedBatch<SegmentationTargets>;
let strategies: [StagedTransfer, StagedTransfer];
let leaks: LeakCheck;

beforeAll(async () => {
  context = await useBackend();
  const coco = await cocoLoader();
  dataset = coco.dataset;
  first = (await coco.loader.stream().next()).value!;
  strategies = [hostChannelNormalize(context, IMAGENET_NORMALIZATION), deviceChannelNormalize(context, IMAGENET_NORMALIZATION)];
  leaks = new LeakCheck();
});

describe('COCO segmentation (section 7)', () => {
  it('reads the data set as pycocotools does: images, annotations, mask areas per category', async ({ task }) => {
    const s = dataset.summary;
    expect(s.images).toBeGreaterThan(0);
    // Every class's mask area is at least what survives painting (later objects cover earlier ones).
    for (const c of s.classes.slice(1)) expect(c.maskArea).toBeGreaterThanOrEqual(c.semanticPixels);
    await recordMetrics(task, ...cocoSummaryMetrics(dataset));
  });

  it('collates images of different sizes into one contiguous uint8 batch and masks of the same size', () => {
    const { side, batch } = useMediaSizes().coco;
    expect(first.batch.shape).toEqual([batch, side, side, 3]);
    expect(first.batch.pixels.byteOffset).toBe(0);
    expect(first.batch.pixels.buffer.byteLength).toBe(batch * side * side * 3);
    expect(first.batch.targets.shape).toEqual([batch, side, side]);
    expect(first.batch.targets.masks.reduce((m, x) => Math.max(m, x), 0)).toBeLessThan(dataset.classNames.length);
  });

  it('gives the same normalized input both ways, sending 1 byte per value instead of 4', async ({ task }) => {
    const { pixels, shape } = first.batch;
    const { diff, reads } = await expectSameInput(context, strategies, pixels, shape);
    expect(reads[0]!.bytes.dataBytes).toBe(pixels.length * 4);
    expect(reads[1]!.bytes.dataBytes).toBe(Math.ceil(pixels.length / 4) * 4);
    const masks = await countAndRead(context, () => tf.tidy(() => sendMasks(first.batch.targets.masks, first.batch.targets.shape).toFloat()));
    expect(masks.bytes.dataBytes).toBe(Math.ceil(first.batch.targets.masks.length / 4) * 4);
    expect([...masks.values]).toEqual([...first.batch.targets.masks]);
    await recordMetrics(
      task,
      qualityMetric(
        'coco.max-abs-diff',
        diff,
        { max: MEDIA_MAX_DIFF },
        { detail: 'largest |cpu-normalize - device-normalize| over one batch of ImageNet-normalized pixels, both read back from the device' },
      ),
      bytesMetric('coco.upload-bytes.masks', masks.bytes.dataBytes, 'measured', {
        detail: `the batch's class masks [${first.batch.targets.shape.join(',')}] as packed bytes (both strategies); counted at ${context.transfers.boundary}`,
      }),
    );
  });

  it('trains one step of a small FCN to the same loss fed either way, and keeps its kernel tables', async ({ task }) => {
    if (!canTrainConvolutions()) {
      console.info(`[gpu-transfer-perf] ${context.name} has no Conv2DBackpropFilter kernel: the COCO train step is not run here`);
      return;
    }
    const { side, trainBatch } = useMediaSizes().coco;
    const classes = dataset.classNames.length;
    // The first trainBatch images of the batch (quick keeps CI's software device fast).
    const shape = [trainBatch, side, side, 3];
    const pixels = first.batch.pixels.subarray(0, trainBatch * side * side * 3);
    const masks = sendMasks(first.batch.targets.masks.subarray(0, trainBatch * side * side), [trainBatch, side, side]);
    const steps = [];
    for (const t of strategies) {
      const build = () => createSegmentationFcn(side, classes);
      steps.push(
        await profiledTrainStep(
          t,
          build,
          pixels,
          shape,
          (model, x) => segmentationLoss(model, x, masks, classes),
          `one Adam step of the segmentation FCN on [${shape.join(',')}]`,
        ),
      );
    }
    masks.dispose();
    const [host, device] = steps as [(typeof steps)[0], (typeof steps)[0]];
    expect(Number.isFinite(host.loss)).toBe(true);
    const gap = Math.abs(host.loss - device.loss) / Math.abs(host.loss);
    expect(gap).toBeLessThanOrEqual(1e-5);
    await recordKernelTable(task, 'coco-cpu-normalize-train-step', host.table);
    await recordKernelTable(task, 'coco-device-normalize-train-step', device.table);
    await recordMetrics(
      task,
      qualityMetric(
        'coco.train-step-loss-gap',
        gap,
        { max: 1e-5 },
        { detail: `|loss(cpu-normalize) - loss(device-normalize)| / |loss| after one Adam step from the same seeded weights (loss ${host.loss.toFixed(5)})` },
      ),
    );
  });

  itLeavesNoTensors(() => leaks);
});
