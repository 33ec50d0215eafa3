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
