// `gtp perf --shape NxHxWxC [--batch N,...] [--dtype uint8,int8,float16,float32]
// [--mean R,G,B --std R,G,B]`: the article's question at the user's own shapes, with no code:
// seeded random pixels of each shape sent both ways (normalize on the host and send float32, or
// send the bytes and normalize on the device), with the user's normalization (ImageNet's by
// default), bytes measured, speedup from interleaved synced pairs, the stage breakdown and the
// device limit; then each wire type asked for, with its speedup against float32 as section 11
// measures it. A timed scenario: nothing about time is asserted.
import { describe, it } from 'vitest';
import { measureShape, recordMetrics, shapeId, useBackend, useConfig } from 'gpu-transfer-perf';

const config = useConfig();
const question = config.question?.kind === 'shape' ? config.question : null;

describe('your shapes: cpu-normalize vs device-normalize', () => {
  if (!question) {
    it('needs --shape', () => {
      throw new Error('questions/shape.perf.ts runs through `gtp perf --shape NxHxWxC`; no shape was given');
    });
    return;
  }
  for (const shape of question.shapes) {
    it(`moves [${shapeId(shape)}] both ways${question.dtypes.length > 0 ? ` and as ${question.dtypes.join(', ')}` : ''}`, async ({ task }) => {
      await recordMetrics(task, ...(await measureShape(await useBackend(), shape, question.dtypes, config.scale, question.normalization)));
    });
  }
});
