/**
 * The host normalize loop alone, with no harness, no tfjs and no device (issue 27): is the
 * two-state spread of the MNIST speedup a state of the process or of the machine?
 *
 *   for i in $(seq 10); do npx tsx scripts/host-loop-state.ts; done
 *   npx tsx scripts/host-loop-state.ts --offsets
 *
 * Default: 4 sessions of 200 repeats of normalizeWithTable's loop (50,176 pixels, one MNIST batch
 * of 64) into a fresh Float32Array each; prints each session's median in ms. --offsets: the
 * input at 4 and the output at 8 byte offsets inside fixed buffers, 100 repeats each, to see
 * whether alignment decides the time. Medians of performance.now() differences; no device.
 */
import { parseArgs } from 'node:util';
import { ARTICLE_NORMALIZATION, normalizationTable, normalizeWithTable } from '../src/transfer/normalization.js';

const PIXELS = 64 * 28 * 28;
const table = normalizationTable(ARTICLE_NORMALIZATION);

/** Median ms of `repeats` runs of the loop from `pixels` into `into`. */
function medianMs(pixels: Uint8Array, into: Float32Array, repeats: number): number {
  const times: number[] = [];
  for (let r = 0; r < repeats; r++) {
    const start = performance.now();
    normalizeWithTable(pixels, table, into);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(repeats / 2)]!;
}

/** Pseudo-random pixels (a multiplicative hash of the index): content does not matter to the loop. */
function fill(pixels: Uint8Array): void {
  for (let i = 0; i < pixels.length; i++) pixels[i] = Math.imul(i, 2654435761) >>> 24;
}

const { values } = parseArgs({ options: { offsets: { type: 'boolean', default: false } } });
if (values.offsets) {
  const input = new ArrayBuffer(PIXELS + 4096);
  const output = new ArrayBuffer(PIXELS * 4 + 4096);
  const line: string[] = [];
  for (const at of [0, 1024, 2048, 3072]) {
    const pixels = new Uint8Array(input, at, PIXELS);
    fill(pixels);
    for (let out = 0; out < 4096; out += 512) line.push(`${at}/${out}:${medianMs(pixels, new Float32Array(output, out, PIXELS), 100).toFixed(3)}`);
  }
  console.log(`input/output byte offset: median ms\n${line.join(' ')}`);
} else {
  const pixels = new Uint8Array(PIXELS);
  fill(pixels);
  const sessions = Array.from({ length: 4 }, () => medianMs(pixels, new Float32Array(PIXELS), 200).toFixed(3));
  console.log(`median ms per session: ${sessions.join(' ')}`);
}
