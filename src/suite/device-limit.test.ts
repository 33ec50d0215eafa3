import { describe, expect, it } from 'vitest';
import type { StagedTransfer } from '../transfer/strategies/staged-transfer.js';
import { kernelBandwidthMetrics, limitMetrics, limitMs, type DeviceBandwidth } from './device-limit.js';
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
