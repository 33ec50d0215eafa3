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
 * Names are bytes (names.ts): listed, sorted, joined and opened as Node Buffers, so a name that is
 * not UTF-8 is read as torchvision reads it, sorted where Python's sorted() puts its
 * surrogate-escaped str, and shown with `\xNN` escapes. os.walk ignores folders it cannot list
 * (onerror=None); here each is skipped too, and recorded with its reason.
 *
 * Two deliberate differences: names starting with '.' (files and folders) are ignored, so that
 * `.git`, `.ipynb_checkpoints` or macOS `._x.jpg` files neither become classes nor get decoded
 * (torchvision would make `.ipynb_checkpoints` class 0 and shift every label); and a class folder
 * without image files is listed with 0 images rather than refused (torchvision raises unless
 * allow_empty): a perf run measures the images there are.
 */
import { fsErrorCause } from '../../base/regular-file.js';
import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { SkippedItem } from '../media-errors.js';
import { ImageFolderError, LAYOUT_HINT } from './errors.js';
import { compareNames, displayName } from './names.js';

/** torchvision's IMG_EXTENSIONS, matched case-insensitively at the end of the file name. */
export const IMG_EXTENSIONS = ['.jpg', '.jpeg', '.png', '.ppm', '.bmp', '.pgm', '.tif', '.tiff', '.webp'] as const;

/** One listed image file and the class it is filed under. */
export interface ImageFile {
  /** The path as bytes (root joined with the names as listed): what is opened. */
  readonly path: Buffer;
  /** The path for messages and records (names.ts displayName: undecodable bytes as \xNN). */
  readonly name: string;
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

/** A folder under a class that could not be listed (os.walk skips it without a word). */
export type FolderSkipReason = 'unreadable-folder';

/** The classes of an image folder and its image files, in torchvision's order. */
export interface ImageFolderLayout {
  readonly root: string;
  /** Class names for messages and records (displayName), in class index order. */
  readonly classes: readonly string[];
  readonly files: readonly ImageFile[];
  readonly ignored: IgnoredEntries;
  /** Folders under the classes that could not be listed, each with why; their files are unknown. */
  readonly skippedFolders: ReadonlyArray<SkippedItem<FolderSkipReason>>;
}

/** Whether torchvision's ImageFolder would take a file by its name (bytes or text). */
export function hasImageExtension(name: string | Uint8Array): boolean {
  // Only ASCII matters at the end: latin1 maps each byte to one character and lower() leaves the rest alone.
  const lower = (typeof name === 'string' ? name : Buffer.from(name).toString('latin1')).toLowerCase();
  return IMG_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

/** Python's sorted() on str of valid text: by code point, which UTF-8 byte order is (UTF-16 order is not). */
export function byCodePoint(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** `dir/name` as bytes. */
function joinBytes(dir: Buffer, name: Buffer): Buffer {
  return Buffer.concat([dir, Buffer.from('/'), name]);
}

/** Why a folder cannot be listed, in words. */
function whyUnlistable(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such folder';
  if (code === 'ENOTDIR') return 'not a folder but a file';
  if (code === 'EACCES') return 'permission denied';
  if (code === 'ENAMETOOLONG') return 'its path is longer than the system allows (ENAMETOOLONG)';
  return fsErrorCause(error);
}

/** The entries of a folder (names as bytes), or the error that stopped listing it. */
async function listFolder(folder: Buffer): Promise<Array<Dirent<Buffer>> | { error: unknown }> {
  try {
    return await readdir(folder, { encoding: 'buffer', withFileTypes: true });
  } catch (error) {
    return { error };
  }
}

/** Whether an entry is a folder, following symbolic links as is_dir() and os.walk(followlinks=True) do. */
async function isFolder(parent: Buffer, entry: Dirent<Buffer>): Promise<boolean> {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  return (await stat(joinBytes(parent, entry.name)).catch(() => undefined))?.isDirectory() ?? false;
}

const isHidden = (name: Buffer): boolean => name[0] === 0x2e;

interface Tally {
  hidden: number;
  notImage: number;
  readonly skippedFolders: Array<SkippedItem<FolderSkipReason>>;
}

/**
 * The image files under one class folder: folders in sorted path order, files sorted within
 * each. A folder reached twice through links is read once (os.walk would loop until ELOOP). A
 * folder that cannot be listed is skipped and recorded, as os.walk skips it.
 */
async function classFiles(folder: Buffer, tally: Tally): Promise<Buffer[]> {
  const groups: Array<[Buffer, Buffer[]]> = [];
  const seen = new Set<string>();
  const walk = async (dir: Buffer): Promise<void> => {
    let entries: Array<Dirent<Buffer>>;
    try {
      // latin1: one character per byte, so the key is the bytes themselves.
      const real = (await realpath(dir, { encoding: 'buffer' })).toString('latin1');
      if (seen.has(real)) return;
      seen.add(real);
      const listed = await listFolder(dir);
      if ('error' in listed) throw listed.error;
      entries = listed;
    } catch (error) {
      tally.skippedFolders.push({ item: `${displayName(dir)}/`, reason: 'unreadable-folder', detail: `cannot be listed (${whyUnlistable(error)})` });
      return;
    }
    const files: Buffer[] = [];
    for (const entry of entries) {
      if (isHidden(entry.name)) tally.hidden++;
      else if (await isFolder(dir, entry)) await walk(joinBytes(dir, entry.name));
      else if (hasImageExtension(entry.name)) files.push(entry.name);
      else tally.notImage++;
    }
    groups.push([dir, files.sort(compareNames)]);
  };
  await walk(folder);
  groups.sort(([a], [b]) => compareNames(a, b));
  return groups.flatMap(([dir, files]) => files.map((name) => joinBytes(dir, name)));
}

/** Lists `<root>/<class>/...`; throws ImageFolderError when root is missing, a file, or has no class folder. */
export async function scanImageFolder(root: string): Promise<ImageFolderLayout> {
  const tally: Tally = { hidden: 0, notImage: 0, skippedFolders: [] };
  // Without trailing slashes, as os.path.join would join it (the root '/' stays).
  const rootBytes = Buffer.from(root.length > 1 ? root.replace(/\/+$/, '') || '/' : root);
  const listed = await listFolder(rootBytes);
  if ('error' in listed) throw new ImageFolderError(`${root}: cannot read the image folder (${whyUnlistable(listed.error)}); ${LAYOUT_HINT}`);
  const classes: Buffer[] = [];
  let outsideClasses = 0;
  for (const entry of listed) {
    if (isHidden(entry.name)) tally.hidden++;
    else if (await isFolder(rootBytes, entry)) classes.push(entry.name);
    else outsideClasses++;
  }
  classes.sort(compareNames);
  if (classes.length === 0) {
    const found = outsideClasses === 0 ? 'it is empty' : `only ${outsideClasses} file(s) directly in it`;
    throw new ImageFolderError(`${root}: no class subfolders (${found}); put the images in one subfolder per class, e.g. ${join(root, 'cats', '1.jpg')}`);
  }
  const files: ImageFile[] = [];
  for (const [classIndex, name] of classes.entries()) {
    for (const path of await classFiles(joinBytes(rootBytes, name), tally)) files.push({ path, name: displayName(path), classIndex });
  }
  const { skippedFolders, ...counts } = tally;
  return { root, classes: classes.map(displayName), files, ignored: { ...counts, outsideClasses }, skippedFolders };
}
