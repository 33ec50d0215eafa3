/**
 * The host-state probe (issue 27): a fixed piece of host work timed inside every pair of a
 * scenario, as a covariate of the pair's ratio. On the CI's VM the same loop runs in two speeds
 * that switch over seconds with no harness running (docs/baselines.md, scripts/host-loop-state.ts):
 * a state of the machine, not of the code, which moves a host-bound strategy and so its ratio.
 * The verdicts adjust each process's ratio for the probe it measured (results/covariate.ts).
 * It never reads the code under test: the same loop at every commit.
 */

/** Elements of the probe's input: one article batch, 64 x 28 x 28 uint8 (50,176 B). */
export const HOST_PROBE_ELEMENTS = 64 * 28 * 28;

/** A lookup-table loop over a fixed uint8 array: the kind of host work cpu-normalize does. */
export interface HostProbe {
  /** Milliseconds of one pass (performance.now()); a sampled variant's timing. */
  (): number;
  /** Sum of the last pass's output: what a test checks, and what keeps the loop from being dropped. */
  readonly checksum: () => number;
}

/** A fresh probe: its input (a fixed byte pattern), table and output array are its own. */
export function hostProbe(): HostProbe {
  const input = new Uint8Array(HOST_PROBE_ELEMENTS);
  // A fixed pattern that visits all 256 entries, no RNG: every commit times the same work.
  for (let i = 0; i < input.length; i++) input[i] = (i * 131 + 7) & 0xff;
  const table = new Float32Array(256);
  for (let v = 0; v < 256; v++) table[v] = v / 255;
  const output = new Float32Array(HOST_PROBE_ELEMENTS);
  const pass = (): number => {
    const start = performance.now();
    for (let i = 0; i < input.length; i++) output[i] = table[input[i]!]!;
    return performance.now() - start;
  };
  return Object.assign(pass, {
    checksum: () => {
      let sum = 0;
      for (let i = 0; i < output.length; i++) sum += output[i]!;
      return sum;
    },
  });
}
