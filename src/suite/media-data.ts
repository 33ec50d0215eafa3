import type { SegmentationTargets } from '../data/coco/collate.js';
import type { CocoDataset } from '../data/coco/reader.js';
import { cocoSource } from '../data/coco/source.js';
import type { KineticsDataset } from '../data/kinetics/reader.js';
import { kineticsSource } from '../data/kinetics/source.js';
import type { DatasetLoader } from '../data/loader.js';
import { exactMetric, type MetricInput } from '../results/metrics.js';
import { useCoco, useKinetics, useSourceSizes } from './session.js';

/** COCO batches of this scale: `batch` images letterboxed to `side` x `side`, shuffled, seeded. */
export async function cocoLoader(): Promise<{ dataset: CocoDataset; loader: DatasetLoader<Uint8Array, SegmentationTargets>; what: string }> {
  return cocoSource.batches(await useCoco(), useSourceSizes(cocoSource));
}

/** Kinetics batches of this scale: `batch` clips of `frames` frames, shuffled, seeded. */
export async function kineticsLoader(): Promise<{ dataset: KineticsDataset; loader: DatasetLoader<number, Int32Array>; what: string }> {
  return kineticsSource.batches(await useKinetics(), useSourceSizes(kineticsSource));
}

/** The COCO summary as exact metrics: what a user checks against pycocotools. */
export function cocoSummaryMetrics(dataset: CocoDataset): MetricInput[] {
  const s = dataset.summary;
  const count = (id: string, value: number, unit: string, detail: string, labels?: Record<string, string>) =>
    exactMetric(`coco.data.${id}`, value, unit, 'measured', { detail: `${detail} (${s.annotationsFile})`, ...(labels ? { labels } : {}) });
  return [
    count('images', s.images, 'images', 'usable images'),
    count('annotations', s.annotations, 'annotations', 'usable annotations painted onto usable images'),
    count('categories', s.categories, 'categories', 'categories in the JSON'),
    count('skipped', s.skipped.length, 'items', `items skipped, by reason: ${JSON.stringify(s.skippedByReason)}`),
    ...s.classes
      .filter((c) => c.classIndex > 0)
      .map((c) =>
        count(
          `mask-area.${c.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`,
          c.maskArea,
          'px',
          `sum of pycocotools annToMask(ann).sum() over the ${c.name} annotations, native resolution`,
          { category: c.name },
        ),
      ),
  ];
}

/** The Kinetics summary as exact metrics. */
export function kineticsSummaryMetrics(dataset: KineticsDataset): MetricInput[] {
  const s = dataset.summary;
  const count = (id: string, value: number, unit: string, detail: string) =>
    exactMetric(`kinetics.data.${id}`, value, unit, 'measured', { detail: `${detail} (${s.splitFolder})` });
  return [
    count('videos', s.videos, 'videos', 'videos that decode, short ones included'),
    count('frames-decoded', s.framesDecoded, 'frames', 'frames counted by decoding every video (ffprobe -count_frames)'),
    count(
      'clips',
      s.clips,
      'clips',
      `clips of ${s.framesPerClip} frames, step ${s.stepBetweenClips} (torchvision VideoClips: F - ${s.framesPerClip - 1} per video of F frames)`,
    ),
    count(
      'short-videos',
      s.shortVideos.length,
      'videos',
      `videos shorter than one clip: ${s.shortVideos.map((v) => `${v.path} (${v.frames} frames)`).join(', ') || 'none'}`,
    ),
    count('skipped', s.skipped.length, 'items', `videos skipped, by reason: ${JSON.stringify(s.skippedByReason)}`),
  ];
}
