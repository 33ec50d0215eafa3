/**
 * NaN and ±Infinity across the page's hand-off. A browser page's task meta reaches the Node host
 * as JSON (vitest's browser RPC), where NaN and ±Infinity become null: a NaN speedup was then
 * validated as "got null", a value the page never recorded. The page marks each non-finite number
 * (encodeNonFinite) and the reporter restores it (decodeNonFinite) before the record is assembled,
 * so its validation names the value as it was (metricProblems: "got NaN", "got Infinity"). Pure,
 * host-free: the page and the host both load it. Node's forked workers hand meta over as V8
 * serialization, which keeps them: there decodeNonFinite finds no mark and changes nothing.
 */

/** The mark that stands for one non-finite number in JSON: `{ "$gtpNumber": "NaN" }`. */
export const NON_FINITE_MARK = '$gtpNumber';

const SPELLINGS = ['NaN', 'Infinity', '-Infinity'] as const;
type Spelling = (typeof SPELLINGS)[number];

const isPlainObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && (Object.getPrototypeOf(x) === Object.prototype || Object.getPrototypeOf(x) === null);

/** `value` with every non-finite number in it (in arrays and plain objects, at any depth) replaced by its mark. */
export function encodeNonFinite<T>(value: T): T {
  if (typeof value === 'number') return (Number.isFinite(value) ? value : { [NON_FINITE_MARK]: String(value) as Spelling }) as T;
  if (Array.isArray(value)) return value.map((x) => encodeNonFinite(x)) as T;
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, x]) => [k, encodeNonFinite(x)])) as T;
  return value;
}

/** Whether `x` is a mark of encodeNonFinite, and which number it stands for. */
function markedNumber(x: Record<string, unknown>): number | null {
  const keys = Object.keys(x);
  if (keys.length !== 1 || keys[0] !== NON_FINITE_MARK) return null;
  const spelled = x[NON_FINITE_MARK];
  return SPELLINGS.includes(spelled as Spelling) ? Number(spelled) : null;
}

/** `value` with every mark of encodeNonFinite replaced by the number it stands for; anything else as it was. */
export function decodeNonFinite<T>(value: T): T {
  if (Array.isArray(value)) return value.map((x) => decodeNonFinite(x)) as T;
  if (isPlainObject(value)) {
    const marked = markedNumber(value);
    if (marked !== null) return marked as T;
    return Object.fromEntries(Object.entries(value).map(([k, x]) => [k, decodeNonFinite(x)])) as T;
  }
  return value;
}
