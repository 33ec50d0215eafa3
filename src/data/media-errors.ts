/**
 * What the file-backed readers (COCO images, Kinetics videos) report about input they could not
 * use. A bad item is skipped and listed with its reason, never silently dropped; only input that
 * leaves nothing usable is an error (the reader's own error class).
 */

/** One skipped input item: which one, the reason (a fixed code) and what exactly was wrong. */
export interface SkippedItem<Reason extends string> {
  /** The file path, or e.g. `annotation 42` for an item inside a file. */
  readonly item: string;
  readonly reason: Reason;
  readonly detail: string;
}

/** How many items were skipped for each reason (reasons with no items are left out). */
export function countByReason<Reason extends string>(skipped: ReadonlyArray<SkippedItem<Reason>>): Partial<Record<Reason, number>> {
  const counts: Partial<Record<Reason, number>> = {};
  for (const { reason } of skipped) counts[reason] = (counts[reason] ?? 0) + 1;
  return counts;
}

/** `3 missing-file, 1 corrupt-image`: a one-line digest of skipped items for error messages. */
export function describeSkipped<Reason extends string>(skipped: ReadonlyArray<SkippedItem<Reason>>): string {
  const counts = Object.entries(countByReason(skipped)) as Array<[string, number]>;
  if (counts.length === 0) return 'nothing skipped';
  const first = skipped[0]!;
  return `skipped ${counts.map(([reason, n]) => `${n} ${reason}`).join(', ')}; e.g. ${first.item}: ${first.detail}`;
}

/** The message of an unknown thrown value. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Whether a code point would act on a terminal or hide text: C0/C1 controls, separators, bidi, U+FFFD. */
function unsafeCodePoint(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x2028 ||
    code === 0x2029 ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069) ||
    code === 0xfffd
  );
}

const NAMED_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * `text` made safe for a one-line message: control characters (NUL, newlines, escape sequences),
 * U+FFFD from undecodable bytes, line separators and bidi overrides are written as escapes, and
 * a long text is cut to `max` characters. Messages quote what a reader found in a file, and a
 * binary or hostile file must not break the one line or act on the user's terminal.
 */
export function printable(text: string, max = 240): string {
  const cut = text.length > max ? `${text.slice(0, max)}...` : text;
  let out = '';
  for (const c of cut) {
    const code = c.codePointAt(0)!;
    if (!unsafeCodePoint(code)) out += c;
    else out += NAMED_ESCAPES[c] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`);
  }
  return out;
}
