/**
 * Videos in a browser page (section 8 in the browser, issue 43): a video file's bytes played by the
 * browser's own decoder through a `<video>` element, one frame at a time by seeking, for the three
 * ways of browser-images.ts (the element itself is the source: a 2D canvas draws its current
 * frame; tf.browser.fromPixels imports it, on webgpu as an external texture). Runs in the page only.
 */

/** A file the page's decoder could not open, with the reason the element gave. */
export class VideoDecodeInPageError extends Error {
  override readonly name = 'VideoDecodeInPageError';
}

/** MediaError codes by number (HTML spec, 4.8.11.1). */
const MEDIA_ERRORS: Readonly<Record<number, string>> = {
  1: 'MEDIA_ERR_ABORTED',
  2: 'MEDIA_ERR_NETWORK',
  3: 'MEDIA_ERR_DECODE',
  4: 'MEDIA_ERR_SRC_NOT_SUPPORTED',
};

/** Resolves on `ok`, rejects with the element's MediaError on 'error', whichever comes first. */
function until(video: HTMLVideoElement, ok: string, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      video.removeEventListener(ok, onOk);
      video.removeEventListener('error', onError);
    };
    const onOk = () => {
      done();
      resolve();
    };
    const onError = () => {
      done();
      const e = video.error;
      reject(
        new VideoDecodeInPageError(
          `${what}: ${e ? `${MEDIA_ERRORS[e.code] ?? `code ${e.code}`}${e.message ? ` (${e.message})` : ''}` : 'the element reported an error'}`,
        ),
      );
    };
    video.addEventListener(ok, onOk);
    video.addEventListener('error', onError);
  });
}

/** A paused, muted video element on the file's bytes, its first frame decoded; VideoDecodeInPageError where the browser cannot play it. */
export async function openVideo(bytes: Uint8Array, file: string, type = 'video/mp4'): Promise<HTMLVideoElement> {
  const video = document.createElement('video');
  video.muted = true;
  video.preload = 'auto';
  video.playsInline = true;
  const loaded = until(video, 'loadeddata', `${file} (${type}) in this browser`);
  video.src = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type }));
  try {
    await loaded;
  } catch (error) {
    closeVideo(video);
    throw error;
  }
  return video;
}

/** Lets the element's file go. */
export function closeVideo(video: HTMLVideoElement): void {
  URL.revokeObjectURL(video.src);
  video.removeAttribute('src');
  video.load();
}

/**
 * Shows frame `index` of `frames`: seeks to the middle of its interval, assuming a constant frame
 * rate (duration / frames a frame; the fixture's 25 fps), and waits until the element has it.
 */
export async function seekFrame(video: HTMLVideoElement, index: number, frames: number): Promise<void> {
  if (!(index >= 0 && index < frames)) throw new RangeError(`seekFrame: frame ${index} of ${frames}`);
  const seeked = until(video, 'seeked', `seeking to frame ${index}`);
  video.currentTime = ((index + 0.5) * video.duration) / frames;
  await seeked;
}

/** The byte image of frame `index` in ffmpeg's [frames, height, width, 3] frames. */
export function frameOf(pixels: Uint8Array, index: number, height: number, width: number): Uint8Array {
  const size = height * width * 3;
  return pixels.subarray(index * size, (index + 1) * size);
}
