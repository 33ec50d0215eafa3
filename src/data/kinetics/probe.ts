/**
 * Counting a video's frames by decoding it (ffprobe -count_frames), as torchvision's VideoClips
 * does when it builds its index (read_video_timestamps decodes every frame). A count read from
 * the container header alone would trust a truncated file; decoding finds the damage.
 */
import { availableParallelism } from 'node:os';
import { notRegularReason } from '../../base/regular-file.js';
import { describeStderr, type FfmpegTools, runTool } from './ffmpeg.js';

/** Thrown for a file that is not a decodable video; the reader skips it with this reason. */
export class VideoProbeError extends Error {
  override readonly name = 'VideoProbeError';
  constructor(
    message: string,
    /** Why it is skipped: damaged, or not a regular file at all (a FIFO, a device, a dangling link: never given to ffprobe). */
    readonly skip: 'corrupt-video' | 'not-a-file' = 'corrupt-video',
  ) {
    super(message);
  }
}

/** What decoding a video's first video stream found. */
export interface VideoProbe {
  /** Frames decoded from start to end. */
  readonly frames: number;
  readonly height: number;
  readonly width: number;
  readonly codec: string;
}

/** ffprobe's JSON for one stream; every field may be missing. */
interface ProbeStream {
  codec_name?: string;
  width?: number;
  height?: number;
  nb_frames?: string;
  nb_read_frames?: string;
}

/** Decodes the first video stream of `path` and counts its frames; throws VideoProbeError if damaged. */
export async function probeVideo(tools: FfmpegTools, path: string): Promise<VideoProbe> {
  // ffprobe opens what it is given and waits forever on a FIFO: only regular files reach it (stat does not block).
  const notFile = await notRegularReason(path).catch((error: NodeJS.ErrnoException) => ({ reason: `cannot be looked at (${error.code ?? error.message})` }));
  if (notFile) throw new VideoProbeError(`${notFile.reason}; not given to ffprobe`, 'not-a-file');
  const args = ['-v', 'error', '-select_streams', 'v:0', '-count_frames', '-threads', '1'];
  args.push('-show_entries', 'stream=codec_name,width,height,nb_frames,nb_read_frames', '-of', 'json', path);
  const { code, stdout, stderr } = await runTool(tools.ffprobe, args);
  // At -v error, anything on stderr is damage: a truncated mp4 whose index (moov) comes first
  // still exits 0, but reports "partial file" and decodes fewer frames than the index lists.
  if (code !== 0) throw new VideoProbeError(`ffprobe exited with ${code}: ${describeStderr(stderr) || 'no message'}`);
  if (stderr.trim() !== '') throw new VideoProbeError(`decoding reports errors: ${describeStderr(stderr)}`);
  let stream: ProbeStream | undefined;
  try {
    stream = (JSON.parse(stdout.toString('utf8')) as { streams?: ProbeStream[] }).streams?.[0];
  } catch {
    throw new VideoProbeError('ffprobe printed something that is not JSON');
  }
  if (stream === undefined) throw new VideoProbeError('no video stream');
  const frames = Number(stream.nb_read_frames);
  const { width, height, codec_name: codec = 'unknown' } = stream;
  if (!Number.isSafeInteger(frames) || width === undefined || height === undefined) {
    throw new VideoProbeError(`ffprobe gives no frame count or size (nb_read_frames ${stream.nb_read_frames}, ${width}x${height})`);
  }
  const listed = stream.nb_frames === undefined ? Number.NaN : Number(stream.nb_frames);
  if (Number.isSafeInteger(listed) && listed !== frames) {
    throw new VideoProbeError(`the container lists ${listed} frames but only ${frames} decode: the file is truncated or damaged`);
  }
  return { frames, height, width, codec };
}

/** Probes every path, a few ffprobe processes at a time; each result is a probe or its error. */
export async function probeVideos(tools: FfmpegTools, paths: readonly string[]): Promise<Array<VideoProbe | VideoProbeError>> {
  const results = new Array<VideoProbe | VideoProbeError>(paths.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < paths.length) {
      const i = next++;
      try {
        results[i] = await probeVideo(tools, paths[i]!);
      } catch (error) {
        if (!(error instanceof VideoProbeError)) throw error;
        results[i] = error;
      }
    }
  };
  // One single-threaded ffprobe per core: decoding is the cost.
  const workers = Math.max(1, Math.min(paths.length, availableParallelism()));
  await Promise.all(Array.from({ length: workers }, worker));
  return results;
}
