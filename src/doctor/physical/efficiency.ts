import type { Check, Figure } from '../schema.js';

/**
 * Efficiency: measured host->device throughput over the physical limit of the path it takes.
 * Bands: ../shared/facts/hardware-limits.md section 1, "Proposed bands", for a pinned (DMA) copy
 * over the slowest PCIe link: every healthy pinned figure found lies at 0.75-0.91 of the link
 * (P100 0.77 gearshifft PR #82, A100 0.81-0.83, H100 0.90 nvbandwidth #6; TransferBench's MI300X
 * pass line 0.77); one link step lost (a Gen or width drop) halves the link, leaving 0.37-0.45.
 */
export const EFFICIENCY_BANDS = { healthy: 0.75, low: 0.5 } as const;
export type EfficiencyBand = 'healthy' | 'low' | 'underperforming';

export function efficiencyBand(fraction: number): EfficiencyBand {
  return fraction >= EFFICIENCY_BANDS.healthy ? 'healthy' : fraction >= EFFICIENCY_BANDS.low ? 'low' : 'underperforming';
}

// The last 4x step of the upload curve adds less than this: the curve is flat (our choice; the
// per-process spread of these figures on the CI machine is wider, docs/doctor-and-kit.md).
const PLATEAU_STEP = 0.15;

/**
 * The upload curve's plateau: its largest size (64 or 256 MiB), beyond every cache (a 16 MiB
 * upload can run from a large L3 and beat memory) and the size of the host copy it is set against.
 */
export interface Plateau {
  readonly gbps: number;
  readonly figure: Figure;
  /** The largest size and the one before it differ by at most 15%: the curve is flat there. */
  readonly reached: boolean;
}

/** The plateau of the upload figures (ids upload.<size>, in the order measured: growing sizes). */
export function uploadPlateau(figures: readonly Figure[]): Plateau | null {
  const uploads = figures.filter((f) => /^upload\.\d+[km]ib$/.test(f.id));
  const last = uploads.at(-1);
  if (!last) return null;
  const prev = uploads.at(-2);
  const reached = prev !== undefined && Math.abs(last.value - prev.value) <= PLATEAU_STEP * Math.max(last.value, prev.value);
  return { gbps: last.value, figure: last, reached };
}

/** How the running backend's uploads reach the device, for the expectation stated beside the efficiency. */
export type UploadPath = 'webgpu' | 'software-webgpu' | 'wasm' | 'tensorflow-gpu' | 'tensorflow-cpu' | 'cpu';

/** What the efficiency is judged from. */
export interface EfficiencyInput {
  readonly path: UploadPath;
  readonly plateau: Plateau | null;
  /** The host memory copy figure (host-copy.<size>). */
  readonly hostCopy: Figure | null;
  /** The PCIe limit of the device in use (path minimum, current link, under load where read); null when none is known. */
  readonly linkGBps: number | null;
  /** Why no link limit is known, when none is. */
  readonly whyNoLink: string;
}

export interface Efficiency {
  readonly limit: 'pcie-link' | 'host-memory-copy';
  readonly limitGBps: number;
  readonly measuredGBps: number;
  readonly fraction: number;
  /** Where the fraction falls in the pinned-copy bands. */
  readonly band: EfficiencyBand;
  /** What this upload path can be expected to reach, in words with its source. */
  readonly expectation: string;
  readonly plateauReached: boolean;
}

const gb = (v: number) => `${v.toFixed(2)} GB/s`;

/** The stated expectation of each upload path: what fraction of its limit it can reach, and why. */
function expectation(path: UploadPath, link: number | null, host: number | null): string {
  switch (path) {
    case 'software-webgpu':
      return "a software adapter's upload is CPU copying: one copy where writeBuffer lands in the buffer's host-visible memory, two through a staging buffer (google/dawn DynamicUploader), so about 0.5-1; above 1, the two were timed under different load (see host.load) or the driver copies faster than this copy";
    case 'wasm':
      return 'tfjs-backend-wasm copies the array into its heap: one CPU copy, so up to about 1';
    case 'webgpu': {
      const cap = link !== null && host !== null ? Math.min(link, host) : null;
      return `a WebGPU upload is a CPU copy into Dawn's staging buffer, then a DMA over the link (google/dawn DynamicUploader, Queue.cpp)${cap !== null && link !== null ? `: at most min(link, host copy) = ${gb(cap)}, ${(cap / link).toFixed(2)} of the link` : ''}; no published fraction of the link exists (facts section 5), so an envelope of this kind of machine judges it`;
    }
    case 'tensorflow-gpu':
      return 'tfjs-node-gpu copies from pageable JavaScript memory: pageable runs 0.19-0.42 of pinned (bandwidthTest, gengwg/gpu nvda_gpu_benchmark.md), so about 0.14-0.38 of the link';
    case 'tensorflow-cpu':
    case 'cpu':
      return '';
  }
}

/**
 * The efficiency line. Every path the harness uploads through is staged or pageable, which the
 * pinned-copy bands do not describe (facts section 1: "report their f, but do not fail on it
 * without a same-machine baseline"): the band is stated for reference and the line is info; the
 * link verdicts and an envelope do the judging.
 */
export function judgeEfficiency(input: EfficiencyInput): { check: Check; efficiency: Efficiency | null; figure: Figure | null } {
  const id = 'physical.efficiency';
  if (input.path === 'cpu' || input.path === 'tensorflow-cpu') {
    const why =
      input.path === 'cpu' ? 'the cpu backend keeps a reference to the host array: nothing is copied' : 'TensorFlow runs on the CPU: no device to upload to';
    return { check: { id, status: 'info', reason: `efficiency: not applicable (${why})` }, efficiency: null, figure: null };
  }
  const plateau = input.plateau;
  if (plateau === null) return { check: { id, status: 'info', reason: 'efficiency: no upload figure was measured' }, efficiency: null, figure: null };
  const hostBound = input.path === 'software-webgpu' || input.path === 'wasm';
  const limitGBps = hostBound ? (input.hostCopy?.value ?? null) : input.linkGBps;
  const host = input.hostCopy ? `host memory copy ${gb(input.hostCopy.value)} (measured: ${input.hostCopy.label})` : 'host memory copy not measured';
  if (limitGBps === null) {
    return {
      check: { id, status: 'info', reason: `efficiency: no limit to judge host->device ${gb(plateau.gbps)} against (${input.whyNoLink}); ${host}` },
      efficiency: null,
      figure: null,
    };
  }
  const fraction = plateau.gbps / limitGBps;
  const band = efficiencyBand(fraction);
  const limitText = hostBound
    ? `the host memory copy bandwidth, ${gb(limitGBps)} (measured, ${input.hostCopy!.label}: a software adapter's or the wasm heap's limit)`
    : `the PCIe link, ${gb(limitGBps)}`;
  const efficiency: Efficiency = {
    limit: hostBound ? 'host-memory-copy' : 'pcie-link',
    limitGBps,
    measuredGBps: plateau.gbps,
    fraction,
    band,
    expectation: expectation(input.path, input.linkGBps, input.hostCopy?.value ?? null),
    plateauReached: plateau.reached,
  };
  const reached = plateau.reached ? 'on the plateau' : 'the largest size; not flat yet: the two largest sizes differ by more than 15%';
  const bands = `>= ${EFFICIENCY_BANDS.healthy} healthy, ${EFFICIENCY_BANDS.low}-${EFFICIENCY_BANDS.healthy} low, < ${EFFICIENCY_BANDS.low} underperforming`;
  return {
    check: {
      id,
      status: 'info',
      reason: `efficiency ${fraction.toFixed(2)} = host->device ${gb(plateau.gbps)} (${plateau.figure.label}, ${reached}) / ${limitText}${hostBound ? '' : `; ${host}`}. Expected: ${efficiency.expectation}. The pinned-copy bands (${bands}; facts section 1) would say '${band}'; they describe DMA copies, so they are not applied to this path`,
    },
    efficiency,
    figure: {
      id: 'upload.fraction-of-limit',
      label: `host->device / ${hostBound ? 'host memory copy' : 'PCIe link'}`,
      value: fraction,
      unit: 'fraction',
      n: plateau.figure.n,
      detail: `${plateau.figure.id} (${gb(plateau.gbps)}) over ${hostBound ? `${input.hostCopy!.id} (${gb(limitGBps)})` : `the path's slowest PCIe link as trained while uploading (${gb(limitGBps)}, one direction, after line encoding)`}`,
    },
  };
}
