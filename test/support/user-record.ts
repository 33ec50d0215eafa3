import { CLOCK } from '../../src/measure/timer.js';
import type { MetricInput } from '../../src/results/metrics.js';
import { bytesMetric, exactMetric, qualityMetric, ratioFromPairs, timeMetric } from '../../src/results/metrics.js';
import type { Metric, RunRecord } from '../../src/results/schema.js';
import { testRunRecord } from './run-record.js';

const stamp = (scenario: string, metrics: MetricInput[]): Metric[] => metrics.map((m) => ({ ...m, scenario }));

/** Deterministic noise around `center`: n samples, +-spread. */
const around = (center: number, n: number, spread: number, phase: number): number[] =>
  Array.from({ length: n }, (_, i) => center * (1 + spread * Math.sin(i * 1.7 + phase)));

const WHAT = 'one [8,96,96,3] uint8 RGB batch to a per-channel normalized float32 tensor on the device';

/**
 * A user's run as examples/own-pipeline's perf file writes it (scenario `rgb-batches`, strategies
 * of its own: `host-float32` against `device-uint8`), with a second scenario of its own holding an
 * unpaired ratio and a slower pair: no metric id or strategy the built-in charts know, no stage
 * metrics, no device limits. The data set is the user's own.
 */
export function userTestRecord(): RunRecord {
  const samples = { a: around(0.92, 40, 0.04, 0), b: around(0.23, 40, 0.04, 2) };
  const metrics: Metric[] = [
    ...stamp('rgb-batches', [
      bytesMetric('rgb-batches.wire-bytes.host-float32', 884_736, 'measured', {
        detail: `host-to-device data bytes of ${WHAT}`,
        labels: { strategy: 'host-float32' },
      }),
      bytesMetric('rgb-batches.wire-bytes.device-uint8', 221_184, 'measured', {
        detail: `host-to-device data bytes of ${WHAT}`,
        labels: { strategy: 'device-uint8' },
      }),
      exactMetric('rgb-batches.wire-bytes.ratio', 4, 'x', 'computed', { detail: 'wire bytes of host-float32 over those of device-uint8' }),
      qualityMetric('rgb-batches.max-abs-diff', 2e-7, { max: 1e-5 }, { detail: 'largest |host-float32 - device-uint8| over the batch, read back' }),
      ratioFromPairs('rgb-batches.speedup', samples, {
        detail: `median over interleaved pairs of time(host-float32)/time(device-uint8), 95% bootstrap CI; ${WHAT}; ${CLOCK}`,
        labels: { a: 'host-float32', b: 'device-uint8' },
      }),
      timeMetric('rgb-batches.time.host-float32', 0.92, 40, { detail: `median; ${WHAT}; ${CLOCK}`, labels: { strategy: 'host-float32' } }),
      timeMetric('rgb-batches.time.device-uint8', 0.23, 40, { detail: `median; ${WHAT}; ${CLOCK}`, labels: { strategy: 'device-uint8' } }),
    ]),
    ...stamp('resize', [
      ratioFromPairs(
        'resize.speedup.bilinear-vs-nearest',
        { a: around(1.5, 30, 0.05, 0), b: around(1.9, 30, 0.05, 1) },
        { detail: `median over interleaved pairs of time(nearest)/time(bilinear); ${CLOCK}`, labels: { a: 'nearest', b: 'bilinear' } },
      ),
      ratioFromPairs('resize.cache-hit-gain', { a: around(2, 30, 0.3, 0), b: around(2, 30, 0.3, 2) }, { detail: `cold over warm; ${CLOCK}` }),
      timeMetric('resize.time.bilinear', 1.9, 30, { detail: `median; ${CLOCK}`, labels: { strategy: 'bilinear' } }),
    ]),
  ];
  return testRunRecord(metrics, { datasets: { 'rgb-batches': 'seeded uniform random uint8 pixels of shape [8,96,96,3]' } });
}

/**
 * A `--shape 8x64x64x3` question's run (scenario `shape`): bytes on the wire, the article's two
 * strategies paired (so the claim's answer holds it), their stages, and with `limits` the device
 * limit of each (webgpu measures it; wasm and cpu do not).
 */
export function shapeTestRecord(limits = true): RunRecord {
  const group = 'shape.8x64x64x3';
  const stage = (strategy: string, name: string, ms: number): MetricInput => ({
    ...timeMetric(`${group}.stage-ms.${name}.${strategy}`, ms, 20, {
      detail: name === 'host' ? 'median host stage; host clock, no device work' : `median ${name} stage; ${CLOCK}`,
      labels: { table: 'stages', group, strategy, stage: name },
    }),
    ...(name === 'limit' ? { source: 'computed' as const, detail: 'computed: sync floor + bytes at writeBuffer speed' } : {}),
  });
  const stages = Object.entries({ 'cpu-normalize': [0.4, 0.3, 0.05, 0.7, 0.2], 'device-normalize': [0.001, 0.1, 0.2, 0.28, 0.16] }).flatMap(
    ([strategy, [host, upload, compute, total, limit]]) => [
      stage(strategy, 'host', host!),
      stage(strategy, 'upload', upload!),
      stage(strategy, 'compute', compute!),
      stage(strategy, 'total', total!),
      ...(limits ? [stage(strategy, 'limit', limit!)] : []),
    ],
  );
  const metrics: Metric[] = stamp('shape', [
    bytesMetric(`${group}.upload-bytes.cpu-normalize`, 393_216, 'measured', { detail: 'counted', labels: { group, strategy: 'cpu-normalize' } }),
    bytesMetric(`${group}.upload-bytes.device-normalize`, 98_304, 'measured', { detail: 'counted', labels: { group, strategy: 'device-normalize' } }),
    ratioFromPairs(
      `${group}.speedup`,
      { a: around(0.7, 30, 0.05, 0), b: around(0.28, 30, 0.05, 1) },
      {
        detail: `median over interleaved pairs of time(cpu-normalize)/time(device-normalize); [8,64,64,3]; ${CLOCK}`,
        labels: { group, a: 'cpu-normalize', b: 'device-normalize' },
      },
    ),
    ...stages,
  ]);
  return testRunRecord(metrics, { datasets: { synthetic: 'seeded uniform random uint8 pixels of shape [8,64,64,3] (channels last)' } });
}
