/**
 * The page's command for the run's Kinetics videos (--kinetics-root, else the fixture's train
 * split): each video's file bytes, for the browser's own decoder, and ffmpeg's frames of it at its
 * own size, to compare the two decoders. ffmpeg also gives the frame count the page seeks by (a
 * video element says its duration, not its frames). Without ffmpeg the scenario is skipped before
 * the page starts (preflight.ts), as in Node.
 */
import { relative } from 'node:path';
import type { BrowserCommand } from 'vitest/node';
import { readRegularFile } from '../base/regular-file.js';
import { decodeVideo } from '../data/kinetics/decode.js';
import { findFfmpeg } from '../data/kinetics/ffmpeg.js';
import { scanKinetics } from '../data/kinetics/layout.js';
import { probeVideo, VideoProbeError } from '../data/kinetics/probe.js';
import { kineticsSource } from '../data/kinetics/source.js';
import { type RunConfig, sourceContext } from '../run-config.js';
import type { BrowserKineticsVideos, BrowserVideoFile } from '../suite/browser-session.js';

/** The page's command: the first `count` videos that ffmpeg decodes, in torchvision's order (damaged ones passed over, as the reader does). */
export function kineticsCommand(config: () => RunConfig, base64: (bytes: Uint8Array) => string): BrowserCommand<[count: number]> {
  return async (_context, count): Promise<BrowserKineticsVideos> => {
    const run = config();
    const root = ((run.data[kineticsSource.name] ?? null) as string | null) ?? kineticsSource.fixture;
    const tools = await findFfmpeg(sourceContext(run).videoTools);
    const layout = await scanKinetics(root, 'train');
    const videos: BrowserVideoFile[] = [];
    for (const entry of layout.videos) {
      if (videos.length >= count) break;
      const probe = await probeVideo(tools, entry.path).catch((error: unknown) => {
        if (error instanceof VideoProbeError) return null;
        throw error;
      });
      if (!probe) continue;
      const [bytes, decoded] = await Promise.all([readRegularFile(entry.path), decodeVideo(tools, entry.path, { height: probe.height, width: probe.width })]);
      videos.push({
        file: relative(root, entry.path),
        bytes: base64(bytes),
        frames: decoded.frames,
        height: probe.height,
        width: probe.width,
        codec: probe.codec,
        pixels: base64(decoded.pixels),
      });
    }
    return { videos, described: run.datasets[kineticsSource.name] ?? kineticsSource.defaultDescription };
  };
}
