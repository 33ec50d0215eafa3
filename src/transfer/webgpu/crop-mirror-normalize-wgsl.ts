import { f32Literal } from './normalize-packed-program.js';

/**
 * WGSL helpers shared by the vec4 crop-mirror-normalize programs: per-channel constants as
 * functions of a channel index (scalar) or of a phase (4 consecutive channels-last elements).
 * The constants are compiled in as f32 literals of the same doubles the first program uses, so
 * every program subtracts and divides by the same f32 values.
 */

/** Nested `select` over literals: value k when `index == k` (chosen with compares, no indexed memory). */
function selectChain(index: string, literals: readonly string[]): string {
  return literals.slice(1).reduce((chosen, literal, k) => `select(${chosen}, ${literal}, ${index} == ${k + 1})`, literals[0]!);
}

/** Channels up to which constants are picked by `select` (4 or fewer on every common layout); beyond, a private array. */
const MAX_SELECT_CHANNELS = 4;

/**
 * WGSL functions over per-channel `mean` and `std`:
 * - `meanOf(c : i32) -> f32`, `stdOf(c : i32) -> f32`: channel c's constants;
 * - `mean4(q : i32) -> vec4<f32>`, `std4(q : i32) -> vec4<f32>`: the constants of 4 consecutive
 *   channels-last elements whose first has channel q, i.e. lanes q, q+1, q+2, q+3 modulo C.
 */
export function channelConstants(mean: readonly number[], std: readonly number[]): string {
  const C = mean.length;
  const scalar = (name: string, values: readonly number[]): string => {
    const literals = values.map(f32Literal);
    if (C <= MAX_SELECT_CHANNELS) return `fn ${name}(c : i32) -> f32 { return ${selectChain('c', literals)}; }`;
    const table = name.toUpperCase();
    return `var<private> ${table} : array<f32, ${C}> = array<f32, ${C}>(${literals.join(', ')});
      fn ${name}(c : i32) -> f32 { return ${table}[c]; }`;
  };
  const vector = (name: string, values: readonly number[]): string => {
    const lanes = (q: number): string => `vec4<f32>(${[0, 1, 2, 3].map((k) => f32Literal(values[(q + k) % C]!)).join(', ')})`;
    if (C <= MAX_SELECT_CHANNELS) {
      return `fn ${name}4(q : i32) -> vec4<f32> { return ${selectChain(
        'q',
        Array.from({ length: C }, (_, q) => lanes(q)),
      )}; }`;
    }
    return `fn ${name}4(q : i32) -> vec4<f32> { return vec4<f32>(${[0, 1, 2, 3].map((k) => `${name}Of((q + ${k}) % ${C})`).join(', ')}); }`;
  };
  return [scalar('meanOf', mean), scalar('stdOf', std), vector('mean', mean), vector('std', std)].join('\n      ');
}

/** WGSL `bytes4(w : u32) -> vec4<f32>`: the 4 bytes of a little-endian word, byte k in lane k. */
export const BYTES4 = `fn bytes4(w : u32) -> vec4<f32> {
        return vec4<f32>((vec4<u32>(w) >> vec4<u32>(0u, 8u, 16u, 24u)) & vec4<u32>(0xffu));
      }`;

/**
 * WGSL for the channel of element `first + 4 * j` of a channels-last output, given `phase`,
 * the channel of `first` (a WGSL i32 expression): folded to a constant when C divides 4j.
 */
export function phaseOf(phase: string, j: number, channels: number): string {
  const step = (4 * j) % channels;
  if (channels === 1) return '0';
  return step === 0 ? phase : `(${phase} + ${step}) % ${channels}`;
}
