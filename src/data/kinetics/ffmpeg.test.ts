import { symlink } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { describeStderr, FfmpegNotFoundError, findFfmpeg, installHint, runTool, toolPaths } from './ffmpeg.js';
import { tempFolder } from '../../../test/support/temp-folder.js';

describe('toolPaths', () => {
  it('uses PATH where no path is given, and FFMPEG_PATH / FFPROBE_PATH when set', () => {
    expect(toolPaths({ ffmpeg: null, ffprobe: null })).toEqual({ ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' });
    expect(toolPaths({ ffmpeg: '/opt/x/ffmpeg', ffprobe: '/opt/y/ffprobe' })).toEqual({ ffmpeg: '/opt/x/ffmpeg', ffprobe: '/opt/y/ffprobe' });
  });

  describe('with FFMPEG_PATH alone', () => {
    const temp = tempFolder('ffmpeg-path-');

    it('takes the ffprobe beside it when there is one', async () => {
      expect(toolPaths({ ffmpeg: temp.at('ffmpeg'), ffprobe: null }).ffprobe).toBe('ffprobe');
      await symlink('/usr/bin/ffprobe', temp.at('ffprobe'));
      expect(toolPaths({ ffmpeg: temp.at('ffmpeg'), ffprobe: null }).ffprobe).toBe(temp.at('ffprobe'));
    });
  });
});

describe('findFfmpeg', () => {
  it('says how to install ffmpeg when it cannot be started', async () => {
    const paths = { ffmpeg: '/nonexistent/ffmpeg', ffprobe: null };
    await expect(findFfmpeg(paths)).rejects.toThrow(FfmpegNotFoundError);
    await expect(findFfmpeg(paths)).rejects.toThrow(
      /ffmpeg not found: cannot run "\/nonexistent\/ffmpeg" \(ENOENT; FFMPEG_PATH or PATH\); install it with `npm run setup:system` or `apt-get install ffmpeg`/,
    );
    await expect(findFfmpeg({ ffmpeg: null, ffprobe: '/nonexistent/ffprobe' })).rejects.toThrow(/ffprobe not found/);
  });

  it('names setup:system only in this repository, and gives the reason a run skips Kinetics with', async () => {
    expect(installHint(true)).toMatch(/npm run setup:system/);
    expect(installHint(false)).not.toMatch(/setup:system/);
    expect(installHint(false)).toMatch(/apt-get install ffmpeg.*FFMPEG_PATH/);
    const error = await findFfmpeg({ ffmpeg: '/nonexistent/ffmpeg', ffprobe: null }).catch((e: unknown) => e);
    expect((error as FfmpegNotFoundError).reason).toBe('ffmpeg not found (FFMPEG_PATH /nonexistent/ffmpeg); install ffmpeg to measure it');
  });

  it('finds the installed ffmpeg and ffprobe', async () => {
    const tools = await findFfmpeg({ ffmpeg: null, ffprobe: null });
    const { code, stdout } = await runTool(tools.ffmpeg, ['-version']);
    expect(code).toBe(0);
    expect(stdout.toString()).toMatch(/^ffmpeg version/);
  });
});

describe('describeStderr', () => {
  it('keeps distinct lines without the varying context prefixes', () => {
    const stderr =
      '[mov,mp4,m4a,3gp,3g2,mj2 @ 0x55ba519744c0] moov atom not found\n[h264 @ 0x1f] moov atom not found\nx.mp4: Invalid data found when processing input\n';
    expect(describeStderr(stderr)).toBe('moov atom not found; x.mp4: Invalid data found when processing input');
    expect(describeStderr('a\nb\nc\nd\ne')).toBe('a; b; c; (2 more)');
  });
});
