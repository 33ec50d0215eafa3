import type sharpType from 'sharp';

/**
 * sharp (libvips), loaded on the first decode rather than at import: its native module costs a
 * CLI start about a tenth of a second, and a flag refused before any image is read needs none.
 */
export async function loadSharp(): Promise<typeof sharpType> {
  return (await import('sharp')).default;
}
