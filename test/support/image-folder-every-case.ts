/**
 * The image folder of every case (issue 30): every format torchvision reads, names that are not
 * UTF-8 or sort differently as bytes and as Python str, NFC and NFD twins, nested folders, a
 * class that is a link, a FIFO named b.png, a dangling link, a folder too deep to list, broken
 * files and a decompression bomb's header. Built in a temp folder by the reader's test and by
 * scripts/make-image-folder-references.ts, which records torchvision's answers on it, so both
 * see the same folder. Its images are fixtures/image-folder-every-case/images (made by
 * scripts/image-folder-references.py).
 *
 * The folder too deep to list: as root (tests and CI run as root) chmod 000 stops nothing, so
 * a folder is made unlistable by its path: nested folders whose full path passes PATH_MAX
 * (4096 bytes on Linux) fail `scandir`/`readdir` with ENAMETOOLONG, in Python's os.walk (which
 * then skips it) and here alike. It is built with short names and renamed deepest first, so no
 * call made to build it has a path that long; `rm -rf` (fts, relative paths) removes it.
 */
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, readdir, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The committed source images. */
export const EVERY_CASE_IMAGES = fileURLToPath(new URL('../../fixtures/image-folder-every-case/images/', import.meta.url));

/** The committed torchvision answers and reference pixels. */
export const EVERY_CASE_REFERENCES = fileURLToPath(new URL('../../fixtures/image-folder-every-case/references/', import.meta.url));

/** A path under the folder, as bytes: text parts are UTF-8, Buffers are taken as they are. */
const bytes = (...parts: Array<string | Buffer>): Buffer => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : p)));

/** Where each source image goes (class folders and names chosen to cover the ordering cases). */
function placements(images: readonly string[]): Array<[Buffer, string]> {
  const byPrefix = (prefix: string) => images.filter((n) => n.startsWith(prefix));
  const out: Array<[Buffer, string]> = [];
  // cats: JPEG, PNG, GIF-named-png, WebP, broken files and the bomb's header; sizes.
  for (const n of [...byPrefix('jpeg_'), ...byPrefix('png_'), ...byPrefix('gif_'), ...byPrefix('webp_'), ...byPrefix('broken_'), ...byPrefix('huge_')]) {
    out.push([bytes('cats/', n), n]);
  }
  for (const n of [...byPrefix('one_'), ...byPrefix('tall_'), ...byPrefix('strip_'), 'scan_1bit.png']) out.push([bytes('cats/sizes/', n), n]);
  // Zebras (upper case sorts first): 16-bit PNG and TIFF.
  for (const n of [...byPrefix('png16_'), ...byPrefix('tiff')]) out.push([bytes('Zebras/', n), n]);
  // A class whose name is Latin-1, not UTF-8 (caf\xe9), holding the BMPs; inside it, a sub
  // folder 'sub' and 'sub dir' (space sorts before '/': 'sub dir/x' < 'sub/x' as paths).
  const cafe = Buffer.from([0x63, 0x61, 0x66, 0xe9]);
  const bmps = byPrefix('bmp_');
  for (const [i, n] of bmps.entries()) out.push([bytes(cafe, '/', i % 3 === 0 ? 'sub/' : i % 3 === 1 ? 'sub dir/' : '', n), n]);
  // NFC and NFD twins, each a class: PNM files.
  const pnm = [...byPrefix('ppm'), ...byPrefix('pgm'), ...byPrefix('pbm')];
  for (const [i, n] of pnm.entries()) out.push([bytes(i % 2 === 0 ? 'caf\u00e9' : 'cafe\u0301', '/', n), n]);
  // File names whose byte order and Python order differ: \x80 (U+DC80) sorts after é (U+E9) in
  // Python but before it as bytes; \xff (U+DCFF) before U+E000 in Python, after it as bytes.
  const names: Array<string | Buffer> = [Buffer.from([0x80]), Buffer.from([0xff, 0xfe]), '\u00e9', '\ue000', '\u{1F600}', 'z', Buffer.from([0xed, 0xa0, 0x80])];
  for (const [i, name] of names.entries()) {
    out.push([bytes('\ue000private/', name, i % 2 === 0 ? '.png' : '.JPG'), i % 2 === 0 ? 'png_rgb.png' : 'jpeg_grey.jpg']);
  }
  out.push([bytes('\u{1F600}emoji/a.webp'), 'webp_lossless.webp']);
  return out;
}

/**
 * Builds `<dir>/set` (the image folder) and `<dir>/outside` (what its link class points to).
 * Returns the image folder's path.
 */
export async function buildEveryCaseFolder(dir: string): Promise<string> {
  const images = (await readdir(EVERY_CASE_IMAGES)).sort();
  const root = join(dir, 'set');
  const rootBytes = Buffer.from(root);
  for (const [path, source] of placements(images)) {
    const full = bytes(rootBytes, '/', path);
    await mkdir(full.subarray(0, full.lastIndexOf(0x2f)), { recursive: true });
    await copyFile(join(EVERY_CASE_IMAGES, source), full);
  }
  // A class that is a link to a folder elsewhere (is_dir() follows it).
  await mkdir(join(dir, 'outside', 'linked'), { recursive: true });
  await copyFile(join(EVERY_CASE_IMAGES, 'png_grey.png'), join(dir, 'outside', 'linked', 'l.png'));
  await symlink(join(dir, 'outside', 'linked'), join(root, 'linked'));
  // A FIFO and a dangling link with image names: torchvision lists both (opening the FIFO would block).
  execFileSync('mkfifo', [join(root, 'cats', 'b.png')]);
  await symlink(join(dir, 'no-such-file.jpg'), join(root, 'cats', 'gone.jpg'));
  // Not images, and files outside every class: listed by neither.
  await writeFile(join(root, 'cats', 'notes.txt'), 'not an image\n');
  await writeFile(join(root, 'README.txt'), 'outside the classes\n');
  await symlink(join(dir, 'nowhere'), join(root, 'dangling-class'));
  // The folder too deep to list (see the file comment), with one image readable above it.
  const deep = join(root, 'cats', 'deep');
  await mkdir(join(deep, ...new Array<string>(20).fill('d')), { recursive: true });
  await copyFile(join(EVERY_CASE_IMAGES, 'png_rgb.png'), join(deep, 'shallow.png'));
  await copyFile(join(EVERY_CASE_IMAGES, 'png_rgb.png'), join(deep, ...new Array<string>(20).fill('d'), 'lost.png'));
  for (let level = 20; level >= 1; level--) {
    const parent = join(deep, ...new Array<string>(level - 1).fill('d'));
    await rename(join(parent, 'd'), join(parent, `${String(level).padStart(2, '0')}${'d'.repeat(238)}`));
  }
  return root;
}

/** Removes what buildEveryCaseFolder made (rm's fts reaches below PATH_MAX, fs.rm does not). */
export function removeEveryCaseFolder(dir: string): void {
  execFileSync('rm', ['-rf', dir]);
}
