/**
 * Clips of a list of videos, as torchvision.datasets.video_utils.VideoClips(frames_per_clip,
 * step_between_clips) cuts them with frame_rate=None (no resampling): every window of
 * framesPerClip consecutive frames starting at 0, step, 2*step, ... (its `unfold`), clip i of the
 * data set being found by bisecting the cumulative clip counts (its get_clip_location).
 */

/** Throws unless `value` is an integer >= 1. */
function checkPositive(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be an integer >= 1, got ${value}`);
}

/** Clips in a video of `frames` frames: floor((frames - framesPerClip) / step) + 1, or 0 if shorter. */
export function clipsInVideo(frames: number, framesPerClip: number, step: number): number {
  checkPositive('framesPerClip', framesPerClip);
  checkPositive('stepBetweenClips', step);
  if (!Number.isSafeInteger(frames) || frames < 0) throw new RangeError(`frames must be an integer >= 0, got ${frames}`);
  return frames < framesPerClip ? 0 : Math.floor((frames - framesPerClip) / step) + 1;
}

/** Which video a clip comes from and its first frame. */
export interface ClipLocation {
  readonly video: number;
  readonly startFrame: number;
}

/** The clip index of a set of videos: clip i <-> (video, start frame). */
export class ClipIndex {
  /** cumulative[v] = clips in videos 0..v. */
  private readonly cumulative: number[];

  constructor(
    readonly frameCounts: readonly number[],
    readonly framesPerClip: number,
    readonly step: number,
  ) {
    let total = 0;
    this.cumulative = frameCounts.map((frames) => (total += clipsInVideo(frames, framesPerClip, step)));
  }

  /** Clips over all videos. */
  get count(): number {
    return this.cumulative.at(-1) ?? 0;
  }

  /** Clips of video `video`. */
  clipsOf(video: number): number {
    return this.cumulative[video]! - (video === 0 ? 0 : this.cumulative[video - 1]!);
  }

  /** The video and start frame of clip `clip` (0 <= clip < count). */
  locate(clip: number): ClipLocation {
    if (!Number.isSafeInteger(clip) || clip < 0 || clip >= this.count) {
      throw new RangeError(`clip ${clip} out of range 0..${this.count - 1}`);
    }
    // bisect_right(cumulative, clip): the first video whose cumulative count exceeds clip.
    let lo = 0;
    let hi = this.cumulative.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid]! <= clip) lo = mid + 1;
      else hi = mid;
    }
    const before = lo === 0 ? 0 : this.cumulative[lo - 1]!;
    return { video: lo, startFrame: (clip - before) * this.step };
  }
}
