import type { BackendContext } from '../backend/types.js';
import {
  imageFolderBatches,
  scanImageFolder,
  type ImageFolderBatchOptions,
  type ImageFolderLayout,
  type ImageFolderSummary,
} from '../data/image-folder/index.js';
import type { TimedBatch } from '../data/loader.js';
import { exactMetric, timeMetric, type MetricInput } from '../results/metrics.js';
import type { Question } from '../run-config.js';
import { IMAGENET_NORMALIZATION } from '../transfer/kernels/crop-mirror-normalize.js';
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
 * timed on the host) moved to the device both ways in interleaved order with ImageNet
 * normalization: bytes, speedups and the stage breakdown with the device limit.
 */
export async function measureImageFolder(context: BackendContext, q: ImageFolderQuestion, sizes: MediaSizes['coco']): Promise<MetricInput[]> {
  const layout = await scanImageFolder(q.root);
  const options: ImageFolderBatchOptions = { size: q.size, fit: q.fit, batchSize: q.batchSize };
  const { summary, ms } = await wholePass(layout, options);
  const what = `${q.batchSize} images of ${q.root} (${summary.classes.length} classes), ${q.fit === 'letterbox' ? 'letterboxed' : 'resized'} to ${q.size.height}x${q.size.width}`;
  const counts = (id: string, value: number, detail: string) => exactMetric(`image-folder.${id}`, value, 'count', 'measured', { detail });
  const metrics: MetricInput[] = [
    counts('images', summary.images, `images decoded in one whole pass over ${q.root}`),
    counts(
      'skipped',
      summary.skipped.length,
      `image files skipped in that pass (unreadable, undecodable, or a format sharp cannot read)${skippedList(summary)}`,
    ),
    timeMetric('image-folder.pass-ms', ms, 1, {
      detail: `one whole pass over the folder on the host: read, decode (sharp), ${q.fit}, collate into batches of ${q.batchSize}; one measurement; host clock`,
    }),
  ];
  const timed = await measureMediaTransfer(context, {
    prefix: 'image-folder',
    what,
    batches: passesOver(layout, options),
    strategies: [hostChannelNormalize(context, IMAGENET_NORMALIZATION), deviceChannelNormalize(context, IMAGENET_NORMALIZATION)],
    rounds: sizes.rounds,
    warmupRounds: sizes.warmupRounds,
  });
  return [...metrics, ...timed];
}

/** The first skipped files with their reasons, for the metric's detail. */
function skippedList(summary: ImageFolderSummary): string {
  if (summary.skipped.length === 0) return '';
  const shown = summary.skipped.slice(0, 3).map((s) => `${s.item}: ${s.reason} (${s.detail})`);
  const more = summary.skipped.length - shown.length;
  return `: ${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}
