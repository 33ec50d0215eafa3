// Article section 7: COCO image segmentation, batch 16, timed stage by stage. Real JPEG/PNG files
// decoded by sharp, letterboxed on the host while still uint8, then either normalized on the
// host and sent as float32 (cpu-normalize) or sent as bytes and normalized on the device by the
// fused crop-mirror-normalize kernel (device-normalize). Decode is reported apart: it is the
// same work for both and usually the largest stage. A timed scenario: it asserts nothing about
// time; figures go to the run record.
import { describe } from 'vitest';
import { cocoLoader, itTimesMediaPipeline } from 'gpu-transfer-perf';

describe('COCO segmentation input pipeline, stage by stage (section 7)', () => {
  itTimesMediaPipeline('decodes, collates and moves batches both ways in interleaved rounds', 'coco', cocoLoader);
});
