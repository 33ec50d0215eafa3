/**
 * The fingerprint of an image folder's data, so that a run record can say which images it read
 * and a baseline's same-data check sees a folder that changed (a file added, removed, renamed,
 * moved to another class, or edited) as other data.
 *
 * SHA-256 over the listed image files in torchvision's order (layout.ts): for each, its path
 * below the root as bytes, then the SHA-256 of its contents; then each class folder that could
 * not be listed, by name. Contents, not sizes and mtimes: a git checkout, `cp` or a CI cache
 * restore gives every file a new mtime, so a stat fingerprint would call each CI run's copy of an
 * unchanged folder different data, and an edit that keeps the size and the second is missed. The
 * cost is one read of the folder's bytes (SHA-256 runs at GB/s), less than the question's own
 * pass, which reads and decodes every file. Files the reader would skip without opening (a FIFO,
 * a dangling link) are never opened here either: their kind is hashed instead of contents.
 */
import { createHash } from 'node:crypto';
import { NotRegularFileError, readRegularFile } from '../../base/regular-file.js';
import type { ImageFolderLayout } from './layout.js';

/** Version of the recipe, hashed first: a change of recipe must not compare equal to the old one. */
const RECIPE = 'gtp-image-folder-v1';

/** `len(bytes)` as 4 bytes then the bytes, so that no two lists of names hash alike by concatenation. */
function framed(bytes: Uint8Array): Buffer[] {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return [length, Buffer.from(bytes)];
}

/** The path below the root, as bytes (the layout joins root and names with '/'). */
function relativePath(root: string, path: Buffer): Buffer {
  const rootBytes = Buffer.from(root.length > 1 ? root.replace(/\/+$/, '') || '/' : root);
  let start = path.subarray(0, rootBytes.length).equals(rootBytes) ? rootBytes.length : 0;
  while (path[start] === 0x2f) start++;
  return path.subarray(start);
}

/** The digest standing for one file: its contents', or a marker of why it cannot be read. */
async function fileDigest(path: Buffer): Promise<Buffer> {
  try {
    return createHash('sha256')
      .update(await readRegularFile(path))
      .digest();
  } catch (error) {
    // The same marker each time for the same state, so an unchanged folder keeps its fingerprint.
    const state = error instanceof NotRegularFileError ? error.kind : `unreadable:${(error as NodeJS.ErrnoException).code ?? 'error'}`;
    return createHash('sha256').update(`not read: ${state}`).digest();
  }
}

/** SHA-256 (hex) of the folder's listed image files, names and contents (see the file comment). */
export async function fingerprintImageFolder(layout: ImageFolderLayout): Promise<string> {
  const hash = createHash('sha256').update(RECIPE);
  for (const file of layout.files) {
    for (const part of framed(relativePath(layout.root, file.path))) hash.update(part);
    hash.update(await fileDigest(file.path));
  }
  // A class subfolder that could not be listed hides files: which one it is is part of the data.
  for (const { item } of layout.skippedFolders) {
    const below = item.startsWith(`${layout.root}/`) ? item.slice(layout.root.length + 1) : item;
    for (const part of framed(Buffer.from(`unlisted:${below}`))) hash.update(part);
  }
  return hash.digest('hex');
}
