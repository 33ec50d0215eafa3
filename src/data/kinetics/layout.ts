/**
 * The Kinetics folder layout `<root>/<split>/<class>/<video>.mp4`, listed as torchvision's
 * Kinetics does: classes = sorted names of the folders in `<root>/<split>` (find_classes), and
 * per class, in class order, the video files under its folder (recursively, folders in sorted
 * path order, files sorted by name: make_dataset), with extension .mp4 or .avi.
 */
import { fsErrorCause } from '../../base/regular-file.js';
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { byCodePoint } from '../image-folder/layout.js';
import { KineticsDataError } from './errors.js';

/** torchvision's Kinetics passes extensions=("avi", "mp4"). */
const VIDEO_EXTENSIONS = ['.mp4', '.avi'];

/** One video file and the class it is filed under. */
export interface VideoEntry {
  readonly path: string;
  readonly classIndex: number;
}

/** The classes of a split and its video files in torchvision's order. */
export interface KineticsLayout {
  readonly splitFolder: string;
  readonly classes: readonly string[];
  readonly videos: readonly VideoEntry[];
}

/** The entries of a folder, or a KineticsDataError naming it and why it cannot be read. */
async function listFolder(folder: string, what: string): Promise<Dirent[]> {
  try {
    return await readdir(folder, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such folder' : code === 'ENOTDIR' ? 'not a folder' : code === 'EACCES' ? 'permission denied' : fsErrorCause(error);
    throw new KineticsDataError(`${folder}: cannot read the ${what} (${why}); expected the layout <root>/<split>/<class>/<video>.mp4`);
  }
}

/** Whether an entry is a folder, following symbolic links as os.walk(followlinks=True) does. */
async function isFolder(parent: string, entry: Dirent): Promise<boolean> {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  return (await stat(join(parent, entry.name)).catch(() => undefined))?.isDirectory() ?? false;
}

/** The video files under `folder`, folders in sorted path order and files sorted within each. */
async function videoFiles(folder: string): Promise<string[]> {
  const groups: Array<[string, string[]]> = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await listFolder(dir, 'class folder');
    const files: string[] = [];
    for (const entry of entries) {
      if (await isFolder(dir, entry)) await walk(join(dir, entry.name));
      else if (VIDEO_EXTENSIONS.some((ext) => entry.name.toLowerCase().endsWith(ext))) files.push(entry.name);
    }
    groups.push([dir, files.sort(byCodePoint)]);
  };
  await walk(folder);
  groups.sort(([a], [b]) => byCodePoint(a, b));
  return groups.flatMap(([dir, files]) => files.map((name) => join(dir, name)));
}

/** Lists `<root>/<split>`: its class folders and their videos; throws KineticsDataError if unusable. */
export async function scanKinetics(root: string, split: string): Promise<KineticsLayout> {
  const splitFolder = join(root, split);
  const entries = await listFolder(splitFolder, `"${split}" split folder`);
  const classes: string[] = [];
  for (const entry of entries) if (await isFolder(splitFolder, entry)) classes.push(entry.name);
  classes.sort(byCodePoint);
  if (classes.length === 0) {
    throw new KineticsDataError(`${splitFolder}: no class folders in it; expected <root>/<split>/<class>/<video>.mp4`);
  }
  const videos: VideoEntry[] = [];
  const empty: string[] = [];
  for (const [classIndex, name] of classes.entries()) {
    const files = await videoFiles(join(splitFolder, name));
    if (files.length === 0) empty.push(name);
    for (const path of files) videos.push({ path, classIndex });
  }
  // torchvision's make_dataset refuses classes without a video too (allow_empty=False).
  if (empty.length > 0) {
    throw new KineticsDataError(`${splitFolder}: no .mp4 or .avi file in the class folder(s) ${empty.join(', ')}; remove them or add videos`);
  }
  return { splitFolder, classes, videos };
}
