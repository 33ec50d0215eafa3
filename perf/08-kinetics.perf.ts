// Article section 8: Kinetics video classification, 8 clips of 32 frames, timed stage by stage.
// Real H.264 files decoded by ffmpeg (frames scaled on decode), clips collated on the host as
// [B,T,H,W,C] uint8, then either normalized on the host and sent as float32 (cpu-normalize) or
// sent as bytes and normalized on the device by the fused crop-mirror-normalize kernel
// (device-normalize). A timed scenario: it asserts nothing about time.
import { beforeAll, describe, it } from 'vitest';
import type { BackendContext } from '../src/backend/types.js';
import { IMAGENET_NORMALIZATION } from '../src/transfer/crop-mirror-normalize.js';
import { deviceChannelNormalize, hostChannelNormalize } from '../src/transfer/staged-transfer.js';
import { kineticsLoader } from '../src/suite/media-data.js';
import { measureMediaTransfer } from '../src/suite/media-transfer.js';
import { recordMetrics } from '../src/suite/record.js';
import { useBackend, useMediaSizes } from '../src/suite/session.js';

let context: BackendContext;

beforeAll(async () => {
  context = await useBackend();
});

describe('Kinetics video input pipeline, stage by stage (section 8)', () => {
  it('decodes, collates and moves clip batches both ways in interleaved rounds', async ({ task }) => {
    const { loader, what } = await kineticsLoader();
    const { rounds, warmupRounds } = useMediaSizes().kinetics;
    const metrics = await measureMediaTransfer(context, {
      prefix: 'kinetics',
      what,
      batches: loader.stream(),
      strategies: [hostChannelNormalize(context, IMAGENET_NORMALIZATION), deviceChannelNormalize(context, IMAGENET_NORMALIZATION)],
      rounds,
      warmupRounds,
    });
    await recordMetrics(task, ...metrics);
  });
});
