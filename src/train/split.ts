import { makeImageDataset, type ImageDataset } from '../data/dataset.js';
import { shuffledIndices } from '../base/random.js';

/** A training set and the images held out to measure accuracy on, never trained on. */
export interface TrainTestSplit {
  readonly train: ImageDataset;
  readonly heldOut: ImageDataset;
  /** What was split and how, in words (goes into the run record). */
  readonly description: string;
}

/** The images at `indices` (in that order) as a new dataset with its own buffers. */
export function subsetOf(data: ImageDataset, indices: ArrayLike<number>, source: string): ImageDataset {
  const bytes = data.height * data.width * data.channels;
  const images = new Uint8Array(indices.length * bytes);
  const labels = new Uint8Array(indices.length);
  for (let k = 0; k < indices.length; k++) {
    const i = indices[k]!;
    if (!Number.isInteger(i) || i < 0 || i >= data.count) throw new RangeError(`subsetOf: index ${i} outside 0..${data.count - 1}`);
    images.set(data.images.subarray(i * bytes, (i + 1) * bytes), k * bytes);
    labels[k] = data.labels[i]!;
  }
  return makeImageDataset({ images, labels, count: indices.length, height: data.height, width: data.width, channels: data.channels, source });
}

/**
 * How many of each class to hold out so the held-out set has the classes' proportions and
 * exactly `heldOutCount` images: floor of each share, then one more for the largest remainders
 * (Hamilton's method; ties to the lower class), as scikit-learn's StratifiedShuffleSplit does.
 */
export function stratifiedQuotas(classCounts: readonly number[], heldOutCount: number): number[] {
  const total = classCounts.reduce((a, b) => a + b, 0);
  if (!Number.isInteger(heldOutCount) || heldOutCount < 0 || heldOutCount > total) {
    throw new RangeError(`cannot hold out ${heldOutCount} of ${total} images`);
  }
  const shares = classCounts.map((n) => (n * heldOutCount) / total);
  const quotas = shares.map(Math.floor);
  let left = heldOutCount - quotas.reduce((a, b) => a + b, 0);
  const byRemainder = shares.map((s, c) => ({ c, r: s - Math.floor(s) })).sort((a, b) => b.r - a.r || a.c - b.c);
  for (const { c } of byRemainder) {
    if (left === 0) break;
    if (quotas[c]! < classCounts[c]!) {
      quotas[c]!++;
      left--;
    }
  }
  return quotas;
}

/**
 * Splits a labelled dataset into train and held-out parts with the same class proportions,
 * reproducibly: per class, a seeded shuffle picks the held-out images. Both parts keep the
 * original order of their images (the batch loader shuffles them anyway).
 */
export function stratifiedSplit(data: ImageDataset, heldOutCount: number, seed: number): TrainTestSplit {
  const classes = Math.max(...data.labels) + 1;
  const members: number[][] = Array.from({ length: classes }, () => []);
  data.labels.forEach((label, i) => {
    members[label]!.push(i);
  });
  const quotas = stratifiedQuotas(
    members.map((m) => m.length),
    heldOutCount,
  );
  const held = new Uint8Array(data.count);
  members.forEach((indices, c) => {
    // A stream per class, so one class's size does not change another's pick.
    const order = shuffledIndices(indices.length, seed * 16 + c);
    for (let k = 0; k < quotas[c]!; k++) held[indices[order[k]!]!] = 1;
  });
  const trainIdx: number[] = [];
  const heldIdx: number[] = [];
  held.forEach((h, i) => {
    (h ? heldIdx : trainIdx).push(i);
  });
  const how = `stratified by label, seed ${seed}`;
  return {
    train: subsetOf(data, trainIdx, `${data.source}: ${trainIdx.length} training images (${how})`),
    heldOut: subsetOf(data, heldIdx, `${data.source}: ${heldIdx.length} held-out images (${how})`),
    description: `${data.source} split ${trainIdx.length.toLocaleString('en-US')} train / ${heldIdx.length.toLocaleString('en-US')} held out, ${how}`,
  };
}

/** The first `count` images of a seeded shuffle of `data` (all when count is null or larger). */
export function sampleOf(data: ImageDataset, count: number | null, seed: number): ImageDataset {
  if (count === null || count >= data.count) return data;
  const order = shuffledIndices(data.count, seed).subarray(0, count);
  return subsetOf(data, order, `${data.source}, a seeded sample of ${count}`);
}
