import { beforeAll, describe, expect, it } from 'vitest';
import type { BackendContext } from '../backend/types.js';
import { parseCommandLine } from '../cli/args.js';
import { maxAbsDiff } from '../measure/statistics.js';
import type { Question } from '../run-config.js';
import { normalizeChannelsOnHost } from '../transfer/normalization.js';
import { stagedToDevice } from '../transfer/strategies/staged-transfer.js';
import { float16RoundingBound } from '../transfer/wire/float16.js';
import { WIRE_BYTES } from '../transfer/wire-dtypes.js';
import { useBackend } from './session.js';
import { measureShape, shapeTransfers, syntheticBatches } from './shape-question.js';

// `gtp perf --shape ... --mean R,G,B --std R,G,B` from the command line to the kernels: the
// values parsed from the flags are the ones every strategy and wire type normalizes with, and
// --dtype gives each type's speedup against float32. On the suite's backend (webgpu in CI).

const FLAGS = ['perf', '--shape', '2x5x7x3', '--dtype', 'uint8,int8,float16,float32', '--mean', '100,110.5,120', '--std', '50,60.25,70'];
const MINE = { mean: [100, 110.5, 120], std: [50, 60.25, 70] };

function shapeQuestion(args: string[]): Extract<Question, { kind: 'shape' }> {
  const parsed = parseCommandLine(args, {});
  if (parsed.command !== 'perf' || parsed.question?.kind !== 'shape') throw new Error('expected a --shape question');
  return parsed.question;
}

let context: BackendContext;
beforeAll(async () => {
  context = await useBackend();
});

describe('--mean/--std reach the kernels of a --shape question', () => {
  it('every strategy and wire type gives (x - mean[c]) / std[c] with the flags values', async () => {
    const q = shapeQuestion(FLAGS);
    const shape = q.shapes[0]!;
    const { n, strategies, typed } = shapeTransfers(context, shape, q.dtypes, q.normalization);
    expect(n).toEqual(MINE);
    const { pixels } = syntheticBatches(shape, 1)[0]!;
    const reference = normalizeChannelsOnHost(pixels, MINE); // float64, rounded once (a 256-entry table per channel)
    for (const t of [...strategies, ...typed]) {
      const out = stagedToDevice(t, pixels, shape);
      expect(out.shape, t.id).toEqual([...shape]);
      await context.sync(out);
      const values = (await out.data()) as Float32Array;
      out.dispose();
      if (t.id === 'float16') {
        // Normalized on the host, then rounded to half.
        expect(
          [...values].filter((v, i) => Math.abs(v - reference[i]!) > float16RoundingBound(reference[i]!)),
          t.id,
        ).toEqual([]);
      } else if (t.id === 'cpu-normalize' || t.id === 'float32' || context.name !== 'webgpu') {
        // The host normalized, or a host backend ran the kernel with the float64 reference: bit for bit.
        expect(values, t.id).toEqual(reference);
      } else {
        // f32 arithmetic on the device: rounding of mean, std and the result (the kernels' tests bound it per element).
        expect(maxAbsDiff(values, reference), t.id).toBeLessThanOrEqual(1e-6);
      }
    }
  });

  it('without --mean/--std: ImageNet', () => {
    const q = shapeQuestion(['perf', '--shape', '2x5x7x3']);
    expect(shapeTransfers(context, q.shapes[0]!, [], q.normalization).n).toEqual({
      mean: [0.485 * 255, 0.456 * 255, 0.406 * 255],
      std: [0.229 * 255, 0.224 * 255, 0.225 * 255],
    });
  });

  it('--dtype: bytes of each type, and each type but float32 against float32, stated with the normalization', async () => {
    const q = shapeQuestion(['perf', '--shape', '1x8x8x3', '--dtype', 'float16,uint8', '--mean', '100,110.5,120', '--std', '50,60.25,70']);
    const metrics = await measureShape(context, q.shapes[0]!, q.dtypes, 'quick', q.normalization);
    const byId = new Map(metrics.map((m) => [m.id, m]));
    const group = 'shape.1x8x8x3.dtypes';
    for (const dtype of ['uint8', 'float16'] as const) {
      expect(byId.get(`${group}.upload-bytes.${dtype}`)?.value, dtype).toBe(8 * 8 * 3 * WIRE_BYTES[dtype]);
      const ratio = byId.get(`${group}.speedup-vs-float32.${dtype}`);
      expect(ratio?.kind, dtype).toBe('ratio');
      expect(ratio?.detail).toContain('time(float32)/time(');
      expect(byId.get(`${group}.time.${dtype}`)?.kind, dtype).toBe('time');
    }
    // float32 is the reference, sampled but not asked for: no figure of its own, no ratio to itself.
    expect([...byId.keys()].filter((id) => id.startsWith(group) && id.endsWith('float32'))).toEqual([]);
    expect(byId.get('shape.1x8x8x3.speedup')?.detail).toContain('your --mean/--std: mean 100,110.5,120, std 50,60.25,70 (0-255 scale)');
  }, 120_000);
});
