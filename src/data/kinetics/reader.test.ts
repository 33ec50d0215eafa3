import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeVideo } from './decode.js';
import { KineticsDataError } from './errors.js';
import { videoToolsFromEnv } from '../../cli/args.js';
import { FfmpegNotFoundError, toolPaths } from './ffmpeg.js';
import { loadKinetics } from './reader.js';
import { tempFolder } from '../../../test/support/temp-folder.js';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/kinetics', import.meta.url));
const video = (path: string) => join(FIXTURES, 'train', path);
const SIZE = { height: 24, width: 32 };
/** The ffmpeg of this machine, as a command line would find it. */
const VIDEO_TOOLS = videoToolsFromEnv();

describe('loadKinetics on the committed fixtures', () => {
  it('gives the summary in fixtures/kinetics/README.md', async () => {
    const ds = await loadKinetics({ root: FIXTURES, size: SIZE, videoTools: VIDEO_TOOLS });
    expect(ds.count).toBe(40);
    expect(ds.sampleShape).toEqual([32, 24, 32, 3]);
    expect(ds.classes).toEqual(['abseiling', 'air_drumming']);
    expect(ds.summary).toMatchObject({
      videosListed: 4,
      videos: 4,
      framesDecoded: 153,
      clips: 40,
      shortVideos: [{ path: video('air_drumming/air_drumming_002.mp4'), frames: 20 }],
      skipped: [],
      perClass: [
        { name: 'abseiling', videos: 2, clips: 26 },
        { name: 'air_drumming', videos: 2, clips: 14 },
      ],
    });
    const val = await loadKinetics({ root: FIXTURES, split: 'val', size: SIZE, videoTools: VIDEO_TOOLS });
    expect(val.summary).toMatchObject({ videos: 2, framesDecoded: 72, clips: 10 });
  });

  it('loads clip i as frames [start, start+32) of its video, labelled with its class', async () => {
    const ds = await loadKinetics({ root: FIXTURES, size: SIZE, videoTools: VIDEO_TOOLS });
    const frameBytes = 24 * 32 * 3;
    expect(ds.clipInfo(9)).toEqual({ path: video('abseiling/abseiling_002.mp4'), classIndex: 0, startFrame: 0 });
    expect(ds.clipInfo(26)).toEqual({ path: video('air_drumming/air_drumming_001.mp4'), classIndex: 1, startFrame: 0 });
    const whole = await decodeVideo(toolPaths(VIDEO_TOOLS), video('abseiling/abseiling_001.mp4'), SIZE);
    const clip3 = await ds.load(3);
    expect(clip3.shape).toEqual([32, 24, 32, 3]);
    expect(clip3.target).toBe(0);
    expect(Buffer.from(clip3.pixels).equals(Buffer.from(whole.pixels.subarray(3 * frameBytes, 35 * frameBytes)))).toBe(true);
    // Consecutive clips (step 1) share 31 frames.
    const clip4 = await ds.load(4);
    expect(Buffer.from(clip4.pixels.subarray(0, 31 * frameBytes)).equals(Buffer.from(clip3.pixels.subarray(frameBytes)))).toBe(true);
    expect((await ds.load(39)).target).toBe(1);
    await expect(ds.load(40)).rejects.toThrow(/clip 40 out of range 0\.\.39/);
  });
});

describe('loadKinetics skips what it cannot use and says why', () => {
  const temp = tempFolder('kinetics-bad-');
  /** Copies a fixture video to `<temp folder>/<path>`. */
  const place = async (path: string, from: string) => {
    await mkdir(temp.at(path, '..'), { recursive: true });
    await copyFile(video(from), temp.at(path));
  };

  beforeAll(async () => {
    await place('train/a/good.mp4', 'abseiling/abseiling_001.mp4');
    await place('train/a/short.mp4', 'air_drumming/air_drumming_002.mp4');
    await place('train/b/good.mp4', 'abseiling/abseiling_002.mp4');
    const bytes = await readFile(video('air_drumming/air_drumming_001.mp4'));
    await writeFile(temp.at('train/b/truncated.mp4'), bytes.subarray(0, Math.floor(bytes.length / 2)));
    await place('short/a/short.mp4', 'air_drumming/air_drumming_002.mp4');
    await mkdir(temp.at('broken/a'), { recursive: true });
    await writeFile(temp.at('broken/a/text.mp4'), 'not a video');
  });

  it('skips a truncated mp4 with its reason and reports a short video without failing', async () => {
    const ds = await loadKinetics({ root: temp.path, size: SIZE, videoTools: VIDEO_TOOLS });
    expect(ds.summary).toMatchObject({ videosListed: 4, videos: 3, framesDecoded: 108, clips: 26, skippedByReason: { 'corrupt-video': 1 } });
    expect(ds.summary.skipped[0]!.item).toBe(temp.at('train/b/truncated.mp4'));
    expect(ds.summary.skipped[0]!.detail).toMatch(/decoding reports errors|only \d+ decode/);
    expect(ds.summary.shortVideos).toEqual([{ path: temp.at('train/a/short.mp4'), frames: 20 }]);
  });

  it('refuses a split with no clip at all, saying why', async () => {
    await expect(loadKinetics({ root: temp.path, split: 'short', size: SIZE, videoTools: VIDEO_TOOLS })).rejects.toThrow(KineticsDataError);
    await expect(loadKinetics({ root: temp.path, split: 'short', size: SIZE, videoTools: VIDEO_TOOLS })).rejects.toThrow(
      /no clip of 32 frames in 1 videos \(1 decode, the longest has 20 frames; nothing skipped\)/,
    );
    await expect(loadKinetics({ root: temp.path, split: 'broken', size: SIZE, videoTools: VIDEO_TOOLS })).rejects.toThrow(
      /\(0 decode, .*skipped 1 corrupt-video; e\.g\. .*text\.mp4: ffprobe exited with 1/,
    );
    // With 16-frame clips the short video is enough: 20 - 16 + 1 = 5 clips.
    expect((await loadKinetics({ root: temp.path, split: 'short', size: SIZE, framesPerClip: 16, videoTools: VIDEO_TOOLS })).count).toBe(5);
  });

  it('names a missing folder and refuses bad options', async () => {
    await expect(loadKinetics({ root: temp.at('nowhere'), size: SIZE, videoTools: VIDEO_TOOLS })).rejects.toThrow(
      /nowhere\/train: cannot read the "train" split folder \(no such folder\)/,
    );
    await expect(loadKinetics({ root: temp.path, size: SIZE, framesPerClip: 0, videoTools: VIDEO_TOOLS })).rejects.toThrow(/framesPerClip must be an integer/);
    await expect(loadKinetics({ root: temp.path, size: { height: 0, width: 8 }, videoTools: VIDEO_TOOLS })).rejects.toThrow(/size\.height/);
  });

  it('says how to install ffmpeg when it is missing', async () => {
    const videoTools = { ffmpeg: temp.at('no-ffmpeg'), ffprobe: null };
    await expect(loadKinetics({ root: temp.path, size: SIZE, videoTools })).rejects.toThrow(FfmpegNotFoundError);
    await expect(loadKinetics({ root: temp.path, size: SIZE, videoTools })).rejects.toThrow(/npm run setup:system.*apt-get install ffmpeg/);
  });
});
