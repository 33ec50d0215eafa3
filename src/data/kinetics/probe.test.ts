import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeVideo, VideoCache, VideoDecodeError } from './decode.js';
import { videoToolsFromEnv } from '../../cli/args.js';
import { runTool, toolPaths } from './ffmpeg.js';
import { probeVideo, probeVideos, VideoProbeError } from './probe.js';
import { tempFolder } from '../../../test/support/temp-folder.js';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/kinetics', import.meta.url));
const FORTY = join(FIXTURES, 'train', 'abseiling', 'abseiling_001.mp4');
const tools = toolPaths(videoToolsFromEnv());

describe('probeVideo', () => {
  const temp = tempFolder('kinetics-probe-');
  beforeAll(async () => {
    const bytes = await readFile(FORTY);
    // The fixtures keep their index (moov) first, as web videos do: cut, they still open.
    await writeFile(temp.at('cut-data.mp4'), bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    await writeFile(temp.at('cut-header.mp4'), bytes.subarray(0, 200));
    // Remuxed with the index (moov) at the end, as ffmpeg writes by default: cut, it cannot open.
    await runTool(tools.ffmpeg, ['-v', 'error', '-i', FORTY, '-c', 'copy', temp.at('moov-last.mp4')]);
    const moovLast = await readFile(temp.at('moov-last.mp4'));
    await writeFile(temp.at('cut-moov-last.mp4'), moovLast.subarray(0, Math.floor(moovLast.length * 0.6)));
    await writeFile(temp.at('text.mp4'), 'not a video');
    await copyFile(FORTY, temp.at('whole.mp4'));
  });

  it('counts the frames of a fixture by decoding it', async () => {
    expect(await probeVideo(tools, FORTY)).toEqual({ frames: 40, height: 48, width: 64, codec: 'h264' });
  });

  it('finds truncated and foreign files', async () => {
    await expect(probeVideo(tools, temp.at('cut-data.mp4'))).rejects.toThrow(VideoProbeError);
    await expect(probeVideo(tools, temp.at('cut-data.mp4'))).rejects.toThrow(/decoding reports errors|only \d+ decode/);
    await expect(probeVideo(tools, temp.at('cut-header.mp4'))).rejects.toThrow(/no video stream/);
    await expect(probeVideo(tools, temp.at('cut-moov-last.mp4'))).rejects.toThrow(/ffprobe exited with 1: .*moov atom not found/);
    await expect(probeVideo(tools, temp.at('text.mp4'))).rejects.toThrow(/ffprobe exited with 1: .*Invalid data/);
  });

  it('probes many files, returning each probe or its error in order', async () => {
    const results = await probeVideos(tools, [temp.at('whole.mp4'), temp.at('text.mp4'), FORTY]);
    expect(results.map((r) => (r instanceof Error ? 'error' : r.frames))).toEqual([40, 'error', 40]);
  });
});

describe('decodeVideo', () => {
  it('decodes every frame at the asked size, the same bytes every time', async () => {
    const a = await decodeVideo(tools, FORTY, { height: 16, width: 20 });
    expect(a.frames).toBe(40);
    expect(a.pixels.length).toBe(40 * 16 * 20 * 3);
    const b = await decodeVideo(tools, FORTY, { height: 16, width: 20 });
    expect(Buffer.from(b.pixels).equals(Buffer.from(a.pixels))).toBe(true);
  });

  it('reports a file ffmpeg cannot decode', async () => {
    await expect(decodeVideo(tools, join(FIXTURES, 'README.md'), { height: 8, width: 8 })).rejects.toThrow(VideoDecodeError);
  });
});

describe('VideoCache', () => {
  /** A cache over a fake decoder that records what it decodes. */
  function counting(capacity: number) {
    const calls: string[] = [];
    const cache = new VideoCache(capacity, async (path) => {
      calls.push(path);
      if (path === 'bad') throw new Error('cannot');
      return { frames: 1, pixels: new Uint8Array(3) };
    });
    return { cache, calls };
  }

  it('decodes a video once while it is among the last `capacity` used, and shares concurrent requests', async () => {
    const { cache, calls } = counting(2);
    await Promise.all([cache.get('a'), cache.get('a')]);
    await cache.get('b');
    await cache.get('a');
    await cache.get('c'); // evicts b, the least recently used
    await cache.get('a');
    await cache.get('b');
    expect(calls).toEqual(['a', 'b', 'c', 'b']);
  });

  it('does not keep a failed decode', async () => {
    const { cache, calls } = counting(2);
    await expect(cache.get('bad')).rejects.toThrow('cannot');
    await expect(cache.get('bad')).rejects.toThrow('cannot');
    expect(calls).toEqual(['bad', 'bad']);
  });
});
