/**
 * Decoding a whole video to raw RGB frames of a fixed size with ffmpeg, reproducibly, and keeping
 * the last few decoded videos: consecutive clips of one video (step 1) share 31 of 32 frames, so
 * decoding the video once and slicing clips out of it beats decoding per clip.
 */
import { notRegularReason } from '../../base/regular-file.js';
import { describeStderr, type FfmpegTools, runTool } from './ffmpeg.js';

/** Thrown when ffmpeg cannot decode a video that the probe accepted (e.g. it changed since). */
export class VideoDecodeError extends Error {
  override readonly name = 'VideoDecodeError';
}

/** Output frame size in pixels. */
export interface FrameSize {
  readonly height: number;
  readonly width: number;
}

/** A decoded video: frames [frames, height, width, 3] back to back. */
export interface DecodedVideo {
  readonly frames: number;
  readonly pixels: Uint8Array;
}

/** The ffmpeg arguments that decode `path` to rgb24 frames of `size` on stdout. */
export function decodeArgs(path: string, size: FrameSize): string[] {
  return [
    ...['-v', 'error', '-nostdin'],
    // Bit-exact and single-threaded: the same bytes on every run and machine with this ffmpeg.
    ...['-fflags', '+bitexact', '-threads', '1', '-i', path],
    ...['-map', '0:v:0', '-an', '-sn'],
    // A fixed scaler: bilinear, no aspect preservation (every clip gets exactly this size).
    ...['-vf', `scale=w=${size.width}:h=${size.height}:flags=bilinear`, '-filter_threads', '1'],
    // passthrough: every decoded frame once; the rawvideo muxer would otherwise resample to a
    // constant frame rate, duplicating or dropping frames of variable-rate videos.
    ...['-fps_mode', 'passthrough'],
    ...['-pix_fmt', 'rgb24', '-f', 'rawvideo', '-fflags', '+bitexact', 'pipe:1'],
  ];
}

/** Decodes every frame of `path`'s first video stream, resized to `size`. */
export async function decodeVideo(tools: FfmpegTools, path: string, size: FrameSize): Promise<DecodedVideo> {
  // Probed as a regular file when loaded; one swapped for a FIFO since would block ffmpeg forever.
  const notFile = await notRegularReason(path).catch((error: NodeJS.ErrnoException) => ({ reason: `cannot be looked at (${error.code ?? error.message})` }));
  if (notFile) throw new VideoDecodeError(`${path}: ${notFile.reason}; not given to ffmpeg`);
  const { code, stdout, stderr } = await runTool(tools.ffmpeg, decodeArgs(path, size));
  if (code !== 0 || stderr.trim() !== '') {
    throw new VideoDecodeError(`${path}: ffmpeg ${code === 0 ? 'reports errors' : `exited with ${code}`}: ${describeStderr(stderr)}`);
  }
  const frameBytes = size.height * size.width * 3;
  if (stdout.length % frameBytes !== 0) {
    throw new VideoDecodeError(`${path}: ffmpeg wrote ${stdout.length} bytes, not a whole number of ${size.width}x${size.height} RGB frames`);
  }
  return { frames: stdout.length / frameBytes, pixels: new Uint8Array(stdout.buffer, stdout.byteOffset, stdout.length) };
}

/** The most recently used `capacity` decoded videos; concurrent requests share one decode. */
export class VideoCache {
  private readonly entries = new Map<string, Promise<DecodedVideo>>();

  constructor(
    private readonly capacity: number,
    private readonly decode: (path: string) => Promise<DecodedVideo>,
  ) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new RangeError(`VideoCache: capacity must be an integer >= 1, got ${capacity}`);
  }

  /** The decoded video at `path`, decoding it unless it is among the last `capacity` used. */
  get(path: string): Promise<DecodedVideo> {
    let entry = this.entries.get(path);
    if (entry !== undefined) {
      // Map keeps insertion order: re-inserting makes this the most recently used.
      this.entries.delete(path);
    } else {
      entry = this.decode(path);
      // A failed decode is not kept, so a later call tries again.
      entry.catch(() => {
        if (this.entries.get(path) === entry) this.entries.delete(path);
      });
    }
    this.entries.set(path, entry);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return entry;
  }
}
