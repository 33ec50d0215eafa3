/**
 * A Kinetics-layout video classification data set (article section 8) as torchvision's
 * Kinetics(root, frames_per_clip=32, split, step_between_clips=1) builds it: every window of 32
 * consecutive frames of every video is a sample, labelled with the video's class. Frames are
 * decoded by ffmpeg to RGB at one fixed size. Damaged videos are skipped and listed with their
 * reason; videos shorter than a clip give no clip and are listed too (not an error).
 */
import type { Dataset, Sample } from '../dataset.js';
import { countByReason, describeSkipped, errorMessage, type SkippedItem } from '../media-errors.js';
import { ClipIndex } from './clips.js';
import { decodeVideo, type FrameSize, VideoCache } from './decode.js';
import { KineticsDataError } from './errors.js';
import { type FfmpegPaths, type FfmpegTools, findFfmpeg } from './ffmpeg.js';
import { scanKinetics, type VideoEntry } from './layout.js';
import { probeVideos } from './probe.js';

export interface KineticsOptions {
  /** The folder holding the split folders (torchvision's `root`). */
  readonly root: string;
  /** The split folder name (default 'train'). */
  readonly split?: string;
  /** Frames per clip (default 32, the article's). */
  readonly framesPerClip?: number;
  /** Frames between the starts of consecutive clips (default 1, torchvision's default). */
  readonly stepBetweenClips?: number;
  /** The size every frame is scaled to. */
  readonly size: FrameSize;
  /** Decoded videos kept for the next clips (default 2). */
  readonly cachedVideos?: number;
  /** Where ffmpeg and ffprobe are (FFMPEG_PATH / FFPROBE_PATH as src/cli/args.ts reads them; null: PATH). */
  readonly videoTools: FfmpegPaths;
}

export type KineticsSkipReason = 'corrupt-video' | 'not-a-file';

/** A video too short for one clip. */
export interface ShortVideo {
  readonly path: string;
  readonly frames: number;
}

/** Exact counts of what was read and what was skipped. */
export interface KineticsSummary {
  readonly splitFolder: string;
  readonly classes: readonly string[];
  readonly framesPerClip: number;
  readonly stepBetweenClips: number;
  readonly videosListed: number;
  /** Videos that decode (including the short ones). */
  readonly videos: number;
  /** Frames decoded (and counted) from those videos at load time. */
  readonly framesDecoded: number;
  readonly clips: number;
  readonly shortVideos: readonly ShortVideo[];
  readonly skipped: ReadonlyArray<SkippedItem<KineticsSkipReason>>;
  readonly skippedByReason: Readonly<Partial<Record<KineticsSkipReason, number>>>;
  /** Per class (in class index order): usable videos and their clips. */
  readonly perClass: ReadonlyArray<{ readonly name: string; readonly videos: number; readonly clips: number }>;
}

/** Where clip `index` comes from. */
export interface ClipInfo {
  readonly path: string;
  readonly classIndex: number;
  readonly startFrame: number;
}

/** Clips [T,H,W,3] labelled with their class index. */
export interface KineticsDataset extends Dataset<number> {
  readonly summary: KineticsSummary;
  readonly classes: readonly string[];
  clipInfo(index: number): ClipInfo;
}

/** A usable video with its decoded frame count. */
interface UsableVideo extends VideoEntry {
  readonly frames: number;
}

/** Throws unless `value` is an integer in [min, max]. */
function checkInt(name: string, value: number, min: number, max = Number.MAX_SAFE_INTEGER): void {
  if (!Number.isSafeInteger(value) || value < min || value > max)
    throw new RangeError(`loadKinetics: ${name} must be an integer in [${min}, ${max}], got ${value}`);
}

/** Reads a Kinetics split: lists, probes and indexes its videos into clips. */
export async function loadKinetics(options: KineticsOptions): Promise<KineticsDataset> {
  const { root, split = 'train', framesPerClip = 32, stepBetweenClips = 1, size, cachedVideos = 2 } = options;
  checkInt('framesPerClip', framesPerClip, 1);
  checkInt('stepBetweenClips', stepBetweenClips, 1);
  checkInt('size.height', size.height, 1, 8192);
  checkInt('size.width', size.width, 1, 8192);
  checkInt('cachedVideos', cachedVideos, 1);
  const layout = await scanKinetics(root, split);
  const tools = await findFfmpeg(options.videoTools);
  const probes = await probeVideos(
    tools,
    layout.videos.map((v) => v.path),
  );

  const usable: UsableVideo[] = [];
  const skipped: Array<SkippedItem<KineticsSkipReason>> = [];
  layout.videos.forEach((video, i) => {
    const probe = probes[i]!;
    if (probe instanceof Error) skipped.push({ item: video.path, reason: probe.skip, detail: probe.message });
    else usable.push({ ...video, frames: probe.frames });
  });
  const index = new ClipIndex(
    usable.map((v) => v.frames),
    framesPerClip,
    stepBetweenClips,
  );
  const perClass = layout.classes.map((name) => ({ name, videos: 0, clips: 0 }));
  usable.forEach((video, v) => {
    perClass[video.classIndex]!.videos++;
    perClass[video.classIndex]!.clips += index.clipsOf(v);
  });
  const summary: KineticsSummary = {
    splitFolder: layout.splitFolder,
    classes: layout.classes,
    framesPerClip,
    stepBetweenClips,
    videosListed: layout.videos.length,
    videos: usable.length,
    framesDecoded: usable.reduce((sum, v) => sum + v.frames, 0),
    clips: index.count,
    shortVideos: usable.filter((v) => v.frames < framesPerClip).map(({ path, frames }) => ({ path, frames })),
    skipped,
    skippedByReason: countByReason(skipped),
    perClass,
  };
  if (index.count === 0) {
    throw new KineticsDataError(
      `${layout.splitFolder}: no clip of ${framesPerClip} frames in ${layout.videos.length} videos ` +
        `(${usable.length} decode, the longest has ${Math.max(0, ...usable.map((v) => v.frames))} frames; ${describeSkipped(skipped)})`,
    );
  }
  return makeDataset(usable, index, summary, tools, size, cachedVideos);
}

/** The Dataset over indexed clips: `load` slices the clip out of the (cached) decoded video. */
function makeDataset(
  videos: readonly UsableVideo[],
  index: ClipIndex,
  summary: KineticsSummary,
  tools: FfmpegTools,
  size: FrameSize,
  cachedVideos: number,
): KineticsDataset {
  const cache = new VideoCache(cachedVideos, (path) => decodeVideo(tools, path, size));
  const frameBytes = size.height * size.width * 3;
  const T = summary.framesPerClip;
  const clipInfo = (clip: number): ClipInfo => {
    const { video, startFrame } = index.locate(clip);
    const { path, classIndex } = videos[video]!;
    return { path, classIndex, startFrame };
  };
  return {
    count: index.count,
    source: `Kinetics ${summary.splitFolder} (${summary.classes.length} classes, ${T}-frame clips, step ${summary.stepBetweenClips})`,
    sampleShape: [T, size.height, size.width, 3],
    summary,
    classes: summary.classes,
    clipInfo,
    async load(clip: number): Promise<Sample<number>> {
      const { video, startFrame } = index.locate(clip);
      const { path, classIndex, frames: expected } = videos[video]!;
      let decoded: Awaited<ReturnType<typeof cache.get>>;
      try {
        decoded = await cache.get(path);
      } catch (error) {
        throw new KineticsDataError(`${path}: probed when the data set was loaded but now fails to decode: ${errorMessage(error)}`);
      }
      if (decoded.frames !== expected) {
        throw new KineticsDataError(`${path}: ffmpeg decoded ${decoded.frames} frames, ffprobe counted ${expected}; the file changed after loading`);
      }
      // A view into the cached video: collate copies it into the batch.
      const pixels = decoded.pixels.subarray(startFrame * frameBytes, (startFrame + T) * frameBytes);
      return { pixels, shape: [T, size.height, size.width, 3], target: classIndex };
    },
  };
}
