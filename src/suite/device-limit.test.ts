import { describe, expect, it } from 'vitest';
import type { StagedTransfer } from '../transfer/strategies/staged-transfer.js';
import { groupReferences, referencesClause } from '../results/upload-references.js';
import { kernelBandwidthMetrics, limitMetrics, limitMs, referenceMetrics, type DeviceBandwidth } from './device-limit.js';
import { deviceCost } from './stage-breakdown.js';

/** 1 GB/s writeBuffer, 2 GB/s shader copy, 8 GB/s copyBufferToBuffer, in bytes per ms. */
const bandwidth: DeviceBandwidth = { writeBytesPerMs: 1e6, shaderCopyBytesPerMs: 2e6, bufferCopyBytesPerMs: 8e6 };

const staged = (id: string, wire: number, pass?: number): StagedTransfer => ({
  id,
  wireBytesPerElement: wire,
  ...(pass === undefined ? {} : { passBytesPerElement: pass }),
  prepare: (p) => p,
  upload: () => {
    throw new Error('not used');
  },
  compute: (t) => t,
});

describe('deviceCost', () => {
  it('charges bytes in + float32 out for a decode pass, nothing for float32, or what the strategy states', () => {
    expect(deviceCost(staged('device-normalize', 1), 100)).toEqual({ id: 'device-normalize', uploadBytes: 100, passBytes: 500 });
    expect(deviceCost(staged('float16', 2), 100)).toEqual({ id: 'float16', uploadBytes: 200, passBytes: 600 });
    expect(deviceCost(staged('cpu-normalize', 4), 100)).toEqual({ id: 'cpu-normalize', uploadBytes: 400, passBytes: 0 });
    expect(deviceCost(staged('naive-tfjs', 4, 8), 100)).toEqual({ id: 'naive-tfjs', uploadBytes: 400, passBytes: 800 });
  });
});

describe('the device limit', () => {
  it('is the sync floor + upload at writeBuffer speed + one pass at shader-copy speed', () => {
    // 0.05 + 1e6 B / 1e6 B/ms + 4e6 B / 2e6 B/ms = 3.05 ms
    expect(limitMs(bandwidth, 0.05, 1e6, 4e6)).toBeCloseTo(3.05, 12);
    const [m] = limitMetrics('g', bandwidth, 0.05, [{ id: 'x', uploadBytes: 1e6, passBytes: 4e6 }]);
    expect(m).toMatchObject({ id: 'g.stage-ms.limit.x', source: 'computed', labels: { table: 'stages', group: 'g', strategy: 'x', stage: 'limit' } });
    expect(m!.value).toBeCloseTo(3.05, 12);
  });

  it("sets a kernel's throughput against both copies", () => {
    // 4e6 B in 4 ms = 1e6 B/ms: half the shader copy, an eighth of copyBufferToBuffer.
    const [shader, buffer] = kernelBandwidthMetrics('g', bandwidth, { id: 'x', uploadBytes: 0, passBytes: 4e6 }, 4);
    expect(shader).toMatchObject({ id: 'g.kernel-bandwidth.x.fraction-of-shader-copy', value: 0.5, source: 'computed' });
    expect(buffer).toMatchObject({ id: 'g.kernel-bandwidth.x.fraction-of-buffer-copy', value: 0.125, source: 'computed' });
  });
});

describe('referenceMetrics', () => {
  it("records the API's rate and the host copy a GPU run measured, as information the report reads back", () => {
    const h200: DeviceBandwidth = { writeBytesPerMs: 2.17e6, shaderCopyBytesPerMs: 274.63e6, bufferCopyBytesPerMs: 224.85e6 };
    const metrics = referenceMetrics('mnist-transfer', h200, 'webgpu', { hostCopyGBps: 27.2, hostCopyThreads: 16 });
    expect(metrics.map(({ id, kind, value, unit, source, bound, labels }) => ({ id, kind, value, unit, source, bound, labels }))).toEqual([
      {
        id: 'mnist-transfer.upload-reference.api-upload',
        kind: 'quality',
        value: 2.17,
        unit: 'GB/s',
        source: 'measured',
        bound: {},
        labels: { table: 'upload-references', group: 'mnist-transfer', reference: 'api-upload', name: "WebGPU's upload rate" },
      },
      {
        id: 'mnist-transfer.upload-reference.host-copy',
        kind: 'quality',
        value: 27.2,
        unit: 'GB/s',
        source: 'measured',
        bound: {},
        labels: { table: 'upload-references', group: 'mnist-transfer', reference: 'host-copy', name: 'the host memory copy' },
      },
    ]);
    expect(metrics[1]!.detail).toMatch(/^TypedArray\.set \(memcpy\) of 256 MiB between two host buffers, 16 threads/);
    // Read back from a record: no link without sysfs (doctor's), so the host copy binds the verdict.
    const refs = groupReferences(
      metrics.map((m) => ({ ...m, scenario: 'stages' })),
      'mnist-transfer',
      'webgpu',
    );
    expect(referencesClause(refs)).toBe(
      "that rate (2.17 GB/s) is 0.080 of the host memory copy (27.2 GB/s): the API's staging path binds, not this pipeline (under 0.1 of the host memory copy)",
    );
  });
});
