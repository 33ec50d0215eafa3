/**
 * The image-folder choices the command line reads (cli/args.ts), in a module of their own that
 * imports nothing, so that parsing flags loads no decoder.
 */

/** How pixels are resampled: torchvision's (PIL BILINEAR with antialias), or plain bilinear without. */
export type ImageResample = 'antialias' | 'bilinear-no-antialias';

/** Every ImageResample, the default first. */
export const IMAGE_RESAMPLES: readonly ImageResample[] = ['antialias', 'bilinear-no-antialias'];

/**
 * The default pixel budget of one image: PIL's Image.MAX_IMAGE_PIXELS = int(1024 * 1024 * 1024
 * // 4 // 3) = 89,478,485 (PIL/Image.py, its decompression-bomb check: a warning above it, an
 * error above twice it).
 */
export const PIL_MAX_IMAGE_PIXELS = Math.floor((1024 * 1024 * 1024) / 4 / 3);
