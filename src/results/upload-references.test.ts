import { describe, expect, it } from 'vitest';
import type { Metric } from './schema.js';
import { apiName, bindingOf, groupReferences, referencesClause, STAGING_BOUND_FRACTION } from './upload-references.js';

/** A computed stage limit as device-limit.ts wrote it before the reference metrics: the API's rate only in its detail. */
const limit = (group: string, detail: string): Metric => ({
  id: `${group}.stage-ms.limit.device-normalize`,
  scenario: 'stages',
  kind: 'time',
  value: 0.06,
  unit: 'ms',
  source: 'computed',
  detail,
  labels: { table: 'stages', group, strategy: 'device-normalize', stage: 'limit' },
});

describe('upload references', () => {
  it("reads the API's rate from a limit's detail in records made before the reference metrics", () => {
    const metrics = [limit('coco', 'computed: sync floor 0.0415 ms + ...; writeBuffer 9.84 GB/s, shader copy 12.1 GB/s, ...')];
    expect(groupReferences(metrics, 'coco', 'webgpu')).toEqual({
      api: { kind: 'api-upload', gbps: 9.84, name: "WebGPU's upload rate", source: 'measured', from: null },
      hostCopy: null,
      link: null,
    });
    // Another group, or a measured limit (training's resident step) with no rate in its detail: nothing.
    expect(groupReferences(metrics, 'sweep.b32', 'webgpu').api).toBeNull();
    expect(groupReferences([limit('training', 'one train step of batch 64 ...')], 'training', 'webgpu').api).toBeNull();
  });

  it('says when no machine bound is known, and which binds when one is', () => {
    const api = { kind: 'api-upload' as const, gbps: 9.84, name: "WebGPU's upload rate", source: 'measured' as const, from: null };
    expect(referencesClause({ api, hostCopy: null, link: null })).toBe(
      'that rate (9.84 GB/s) has no machine bound recorded beside it (no PCIe link or host memory copy figure in the record or a doctor report beside it)',
    );
    expect(bindingOf({ api, hostCopy: null, link: null })).toBeNull();
    expect(referencesClause({ api: null, hostCopy: null, link: null })).toBeNull();
    const link = { kind: 'pcie-link' as const, gbps: 15.75, name: 'the Gen3 x16 link', source: 'computed' as const, from: 'doctor-1.json' };
    // 9.84 of a 15.75 GB/s link: 0.62, far above the fraction: the link binds.
    expect(referencesClause({ api, hostCopy: null, link })).toBe(
      'that rate (9.84 GB/s) is 0.62 of the Gen3 x16 link (15.8 GB/s, computed from sysfs) (from doctor-1.json): the Gen3 x16 link binds: the API reaches 0.62 of it',
    );
    expect(bindingOf({ api: { ...api, gbps: STAGING_BOUND_FRACTION * 15.75 - 1e-9 }, hostCopy: null, link })?.binds).toBe('api-staging');
    expect(bindingOf({ api: { ...api, gbps: STAGING_BOUND_FRACTION * 15.75 }, hostCopy: null, link })?.binds).toBe('pcie-link');
  });

  it('names the API of each backend', () => {
    expect(['webgpu', 'tensorflow', 'wasm', 'other'].map(apiName)).toEqual(["WebGPU's", "tfjs-node-gpu's", "the wasm backend's", "other's"]);
  });
});
