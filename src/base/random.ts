import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { skipN } from 'pure-rand/utils/skipN';

/** A seeded source of random numbers; every call advances its state. */
export interface Rng {
  /** A uniform integer in [0, maxExclusive). */
  int(maxExclusive: number): number;
  /** A uniform float in [0, 1), 53 random bits. */
  float(): number;
}

const TWO_POW_32 = 0x1_0000_0000;

/** Murmur3's 32-bit finalizer: a bijection on uint32 that spreads every input bit. */
function mix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85eb_ca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2_ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Folds safe integers into one well-mixed uint32; low and high words both count. */
function hashIntegers(values: readonly number[]): number {
  let h = 0x9e37_79b9;
  for (const v of values) {
    if (!Number.isSafeInteger(v)) {
      throw new RangeError(`seed parts must be safe integers, got ${v}`);
    }
    // `>>> 0` is ToUint32 (mod 2^32), so negatives and values above 2^32 stay distinct.
    h = mix32(h ^ (v >>> 0));
    h = mix32(h ^ (Math.floor(v / TWO_POW_32) >>> 0));
  }
  return h;
}

/** A uint32 seed for stream `stream` (e.g. an epoch number) derived from `seed`. */
export function deriveSeed(seed: number, stream: number): number {
  return hashIntegers([seed, stream]);
}

/** A reproducible Rng (xoroshiro128+ from pure-rand) for an integer seed. */
export function seededRng(seed: number): Rng {
  // xoroshiro128plus(seed) keeps only `seed | 0` and its first output is `~seed`, so nearby
  // seeds would start with nearly equal numbers: hash the seed first and discard a few
  // outputs so that the structured initial state is diffused.
  const generator = xoroshiro128plus(hashIntegers([seed]) | 0);
  skipN(generator, 16);
  return {
    int(maxExclusive: number): number {
      if (!Number.isInteger(maxExclusive) || maxExclusive < 1 || maxExclusive > TWO_POW_32) {
        throw new RangeError(`int(maxExclusive): expected an integer in [1, 2^32], got ${maxExclusive}`);
      }
      return uniformInt(generator, 0, maxExclusive - 1);
    },
    float(): number {
      return uniformFloat64(generator);
    },
  };
}

/** A permutation of 0..n-1 by Fisher-Yates, the same for the same (n, seed). */
export function shuffledIndices(n: number, seed: number): Uint32Array {
  if (!Number.isInteger(n) || n < 0 || n > TWO_POW_32) {
    throw new RangeError(`shuffledIndices: n must be an integer in [0, 2^32], got ${n}`);
  }
  const rng = seededRng(seed);
  const indices = new Uint32Array(n);
  for (let i = 0; i < n; i++) indices[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    const tmp = indices[i]!;
    indices[i] = indices[j]!;
    indices[j] = tmp;
  }
  return indices;
}
