// Article section 7: COCO image segmentation, batch 16, timed stage by stage. Real JPEG/PNG files
// decoded by sharp, letterboxed on the host while still uint8, then either normalized on the
// host and sent as float32 (cpu-normalize) or sent as bytes and normalized on the device by the
// fused crop-mirror-normalize kernel (device-normalize). Decode is reported apart: it is the
// same work for both and usually the largest stage. A timed scenario: it asserts nothing about
// time; figures go to the run record.
import { beforeAll, describe, it } from 'vitest';
import type { BackendContext } from '../src/backend/types.js';
import { IMAGENET_NORMALIZATION } from '../src/transfer/crop-mirror-normalize.js';
import { deviceChannelNormalize, hostChannelNormalize } from '../src/transfer/staged-transfer.js';
import { cocoLoader } from '../src/suite/media-data.js';
import { measureMediaTransfer } from '../src/suite/media-transfer.js';
import { recordMetrics } from '../src/suite/record.js';
import { useBackend, useMediaSizes } from '../src/suite/session.js';

let context: BackendContext;

beforeAll(async () => {
  context = await useBackend();
});

describe('COCO segmentation input pipeline, stage by stage (section 7)', () => {
  it('decodes, collates and moves batches both ways in interleaved rounds', async ({ task }) => {
    const { loader, what } = await cocoLoader();
    const { rounds, warmupRounds } = useMediaSizes().coco;
    const metrics = await measureMediaTransfer(context, {
      prefix: 'coco',
      what,
      batches: loader.stream(),
      strategies: [hostChannelNormalize(context, IMAGENET_NORMALIZATION), deviceChannelNormalize(context, IMAGENET_NORMALIZATION)],
      rounds,
      warmupRounds,
    });
    await recordMetrics(task, ...metrics);
  });
});
