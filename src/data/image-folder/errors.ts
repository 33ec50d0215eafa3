/**
 * Thrown when an image folder is unusable as a whole: missing, not a folder, no class subfolders,
 * or not one image in it that decodes. A single bad file is skipped and counted instead
 * (media-errors.ts). The message is one line naming the path and what to do.
 */
export class ImageFolderError extends Error {
  override readonly name = 'ImageFolderError';
}

/** The layout, said in every error message about the folder as a whole. */
export const LAYOUT_HINT = 'expected <folder>/<class>/<image file>, as torchvision ImageFolder reads';
