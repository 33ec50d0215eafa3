/**
 * The file list of a torchvision `ImageFolder(root)`: `<root>/<class>/<file>`.
 *
 * The rules, from torchvision/datasets/folder.py (pytorch/vision):
 * - find_classes: `classes = sorted(entry.name for entry in os.scandir(directory) if entry.is_dir())`
 *   (symbolic links to folders count: is_dir() follows them); class index = position in that list.
 * - make_dataset: for each class in sorted order,
 *   `for root, _, fnames in sorted(os.walk(target_dir, followlinks=True)): for fname in sorted(fnames)`,
 *   keeping files where `has_file_allowed_extension`: `filename.lower().endswith(IMG_EXTENSIONS)`.
 *   So subfolders of a class belong to it, folders are visited in sorted path order, files sorted
 *   within each, and files directly in root belong to no class and are not read.
 * - IMG_EXTENSIONS = (".jpg", ".jpeg", ".png", ".ppm", ".bmp", ".pgm", ".tif", ".tiff", ".webp").
 * Python's sorted() on str orders by code point (here: UTF-8 bytes, the same order).
 *
 * Two deliberate differences: names starting with '.' (files and folders) are ignored, so that
 * `.git`, `.ipynb_checkpoints` or macOS `._x.jpg` files neither become classes nor get decoded
 * (torchvision would make `.ipynb_checkpoints` class 0 and shift every label); and a class folder
 * without image files is listed with 0 images rather than refused (torchvision raises unless
 * allow_empty): a perf run measures the images there are.
 */
import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ImageFolderError, LAYOUT_HINT } from './errors.js';

/** torchvision's IMG_EXTENSIONS, matched case-insensitively at the end of the file name. */
export const IMG_EXTENSIONS = ['.jpg', '.jpeg', '.png', '.ppm', '.bmp', '.pgm', '.tif', '.tiff', '.webp'] as const;

/** One listed image file and the class it is filed under. */
export interface ImageFile {
  readonly path: string;
  readonly classIndex: number;
}

/** Entries that were not listed, by why (all silently, as torchvision; counted so a user can tell). */
export interface IgnoredEntries {
  /** Files and folders whose name starts with '.' (a hidden folder counts once, unread). */
  readonly hidden: number;
  /** Files in class folders whose name has none of IMG_EXTENSIONS (.txt, .gif, ...). */
  readonly notImage: number;
  /** Files directly in the root folder: they belong to no class. */
  readonly outsideClasses: number;
}

/** The classes of an image folder and its image files, in torchvision's order. */
export interface ImageFolderLayout {
  readonly root: string;
  readonly classes: readonly string[];
  readonly files: readonly ImageFile[];
  readonly ignored: IgnoredEntries;
}

/** Python's sorted() on str: by code point, which UTF-8 byte order is (UTF-16 order is not). */
export function byCodePoint(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** Whether torchvision's ImageFolder would take a file by its name. */
export function hasImageExtension(name: string): boolean {
  const lower = name.toLowerCase();
  return IMG_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

/** The entries of a folder, or an ImageFolderError naming it and why it cannot be read. */
async function listFolder(folder: string, what: string): Promise<Dirent[]> {
  try {
    return await readdir(folder, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'no such folder' : code === 'ENOTDIR' ? 'not a folder but a file' : code === 'EACCES' ? 'permission denied' : (code ?? String(error));
    throw new ImageFolderError(`${folder}: cannot read the ${what} (${why}); ${LAYOUT_HINT}`);
  }
}

/** Whether an entry is a folder, following symbolic links as is_dir() and os.walk(followlinks=True) do. */
async function isFolder(parent: string, entry: Dirent): Promise<boolean> {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  return (await stat(join(parent, entry.name)).catch(() => undefined))?.isDirectory() ?? false;
}

interface Tally {
  hidden: number;
  notImage: number;
}

/**
 * The image files under one class folder: folders in sorted path order, files sorted within
 * each. A folder reached twice through links is read once (os.walk would loop until ELOOP).
 */
async function classFiles(folder: string, tally: Tally): Promise<string[]> {
  const groups: Array<[string, string[]]> = [];
  const seen = new Set<string>();
  const walk = async (dir: string): Promise<void> => {
    const real = await realpath(dir);
    if (seen.has(real)) return;
    seen.add(real);
    const files: string[] = [];
    for (const entry of await listFolder(dir, 'class folder')) {
      if (entry.name.startsWith('.')) tally.hidden++;
      else if (await isFolder(dir, entry)) await walk(join(dir, entry.name));
      else if (hasImageExtension(entry.name)) files.push(entry.name);
      else tally.notImage++;
    }
    groups.push([dir, files.sort(byCodePoint)]);
  };
  await walk(folder);
  groups.sort(([a], [b]) => byCodePoint(a, b));
  return groups.flatMap(([dir, files]) => files.map((name) => join(dir, name)));
}

/** Lists `<root>/<class>/...`; throws ImageFolderError when root is missing, a file, or has no class folder. */
export async function scanImageFolder(root: string): Promise<ImageFolderLayout> {
  const tally: Tally = { hidden: 0, notImage: 0 };
  const classes: string[] = [];
  let outsideClasses = 0;
  for (const entry of await listFolder(root, 'image folder')) {
    if (entry.name.startsWith('.')) tally.hidden++;
    else if (await isFolder(root, entry)) classes.push(entry.name);
    else outsideClasses++;
  }
  classes.sort(byCodePoint);
  if (classes.length === 0) {
    const found = outsideClasses === 0 ? 'it is empty' : `only ${outsideClasses} file(s) directly in it`;
    throw new ImageFolderError(`${root}: no class subfolders (${found}); put the images in one subfolder per class, e.g. ${join(root, 'cats', '1.jpg')}`);
  }
  const files: ImageFile[] = [];
  for (const [classIndex, name] of classes.entries()) {
    for (const path of await classFiles(join(root, name), tally)) files.push({ path, classIndex });
  }
  return { root, classes, files, ignored: { ...tally, outsideClasses } };
}
