import type { BackendContext } from '../backend/types.js';
import {
  IMAGE_FOLDER_SKIP_REASONS,
  imageFolderBatches,
  scanImageFolder,
  type ImageFolderBatchOptions,
  type ImageFolderLayout,
  type ImageFolderSummary,
} from '../data/image-folder/index.js';
import type { TimedBatch } from '../data/loader.js';
import { printable } from '../data/media-errors.js';
import { exactMetric, timeMetric, type MetricInput } from '../results/metrics.js';
import type { Question } from '../run-config.js';
import { IMAGENET_NORMALIZATION, normalizationInWords } from '../transfer/normalization.js';
import { deviceChannelNormalize, hostChannelNormalize } from '../transfer/strategies/staged-transfer.js';
import { measureMediaTransfer } from './media-transfer.js';
import type { MediaSizes } from './sizes.js';

type ImageFolderQuestion = Extract<Question, { kind: 'image-folder' }>;

/** Batches of the folder without end: the pass starts again from the first file when it is done. */
async function* passesOver(layout: ImageFolderLayout, options: ImageFolderBatchOptions): AsyncGenerator<TimedBatch<Int32Array>, never> {
  for (;;) yield* imageFolderBatches(layout, options);
}

/** One whole pass, batches dropped as they come: the folder's counts and the host time of reading it end to end. */
async function wholePass(layout: ImageFolderLayout, options: ImageFolderBatchOptions): Promise<{ summary: ImageFolderSummary; ms: number }> {
  const start = performance.now();
  const pass = imageFolderBatches(layout, options);
  for (;;) {
    const r = await pass.next();
    if (r.done) return { summary: r.value, ms: performance.now() - start };
  }
}

/**
 * `gtp perf --image-folder DIR --size HxW`: a real folder end to end. One whole pass first
 * (images decoded, files skipped and why, host time of the pass); then, as the COCO scenario,
 * rounds of one new batch each (read, decoded by sharp, resized or letterboxed, collated:
 * timed on the host) moved to the device both ways in interleaved order, normalized with the
 * question's --mean/--std (ImageNet's when none): bytes, speedups and the stage breakdown with
 * the device limit.
 */
export async function measureImageFolder(context: BackendContext, q: ImageFolderQuestion, sizes: MediaSizes['coco']): Promise<MetricInput[]> {
  const layout = await scanImageFolder(q.root);
  const options: ImageFolderBatchOptions = {
    size: q.size,
    fit: q.fit,
    batchSize: q.batchSize,
    ...(q.resample === undefined ? {} : { resample: q.resample }),
    ...(q.maxPixels === undefined ? {} : { maxPixels: q.maxPixels }),
  };
  const { summary, ms } = await wholePass(layout, options);
  const resampled = summary.resample === 'antialias' ? "torchvision's antialiased bilinear" : 'bilinear without antialias';
  const what = `${q.batchSize} images of ${q.root} (${summary.classes.length} classes), ${q.fit === 'letterbox' ? 'letterboxed' : 'resized'} to ${q.size.height}x${q.size.width} (${resampled})`;
  const counts = (id: string, value: number, detail: string) => exactMetric(`image-folder.${id}`, value, 'count', 'measured', { detail });
  const metrics: MetricInput[] = [
    counts('images', summary.images, `images decoded in one whole pass over ${q.root}`),
    counts('skipped', summary.skipped.length, `files and folders skipped in that pass${skippedCounts(summary)}${skippedList(summary)}`),
    ...skippedByReason(summary, counts),
    timeMetric('image-folder.pass-ms', ms, 1, {
      detail: `one whole pass over the folder on the host: read, decode (as PIL), ${q.fit} (${resampled}), collate into batches of ${q.batchSize}; one measurement; host clock`,
    }),
  ];
  const n = q.normalization ?? IMAGENET_NORMALIZATION;
  const timed = await measureMediaTransfer(context, {
    prefix: 'image-folder',
    what: `${what}, ${normalizationInWords(n, q.normalization !== undefined)}`,
    batches: passesOver(layout, options),
    strategies: [hostChannelNormalize(context, n), deviceChannelNormalize(context, n)],
    rounds: sizes.rounds,
    warmupRounds: sizes.warmupRounds,
  });
  return [...metrics, ...timed];
}

/** `: 2 undecodable-image, 1 not-a-file`: the count of each reason, in the order a pass meets them. */
function skippedCounts(summary: ImageFolderSummary): string {
  const parts = IMAGE_FOLDER_SKIP_REASONS.filter((r) => summary.skippedByReason[r]).map((r) => `${summary.skippedByReason[r]} ${r}`);
  return parts.length === 0 ? '' : `: ${parts.join(', ')}`;
}

/** A text shown whole (no length cut), its control characters escaped: names and details in the record. */
const whole = (text: string) => printable(text, Number.POSITIVE_INFINITY);

/** `. a.png: undecodable-image (why); ...`: EVERY skipped file and folder with its reason and detail, none left out. */
function skippedList(summary: ImageFolderSummary): string {
  return summary.skipped.length === 0 ? '' : `. ${summary.skipped.map((s) => `${whole(s.item)}: ${s.reason} (${whole(s.detail)})`).join('; ')}`;
}

/** One exact metric per reason met, counting it, its detail naming every file or folder skipped for it. */
function skippedByReason(summary: ImageFolderSummary, counts: (id: string, value: number, detail: string) => MetricInput): MetricInput[] {
  return IMAGE_FOLDER_SKIP_REASONS.filter((r) => summary.skippedByReason[r]).map((reason) => {
    const items = summary.skipped.filter((s) => s.reason === reason);
    return counts(`skipped.${reason}`, items.length, `skipped as ${reason}: ${items.map((s) => whole(s.item)).join('; ')}`);
  });
}
