// Article section 8: Kinetics video classification, 8 clips of 32 frames, timed stage by stage.
// Real H.264 files decoded by ffmpeg (frames scaled on decode), clips collated on the host as
// [B,T,H,W,C] uint8, then either normalized on the host and sent as float32 (cpu-normalize) or
// sent as bytes and normalized on the device by the fused crop-mirror-normalize kernel
// (device-normalize). A timed scenario: it asserts nothing about time.
import { describe } from 'vitest';
import { kineticsLoader, itTimesMediaPipeline } from 'gpu-transfer-perf';

describe('Kinetics video input pipeline, stage by stage (section 8)', () => {
  itTimesMediaPipeline('decodes, collates and moves clip batches both ways in interleaved rounds', 'kinetics', kineticsLoader);
});
