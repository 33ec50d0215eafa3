import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { ImageFolderError } from './errors.js';
import { byCodePoint, hasImageExtension, scanImageFolder } from './layout.js';
import { tempFolder } from '../../../test/support/temp-folder.js';

describe('scanImageFolder', () => {
  const temp = tempFolder('image-folder-layout-');
  /** Creates an empty file (and its folders) under root: listing never opens the files. */
  const touch = async (path: string) => {
    await mkdir(temp.at(path, '..'), { recursive: true });
    await writeFile(temp.at(path), '');
  };
  const relative = (path: Buffer) => path.toString('utf8').slice(temp.path.length + 1);

  beforeAll(async () => {
    const files = [
      ...['set/dogs/2.jpg', 'set/dogs/10.JPEG', 'set/dogs/notes.txt', 'set/dogs/anim.gif', 'set/dogs/.hidden.png', 'set/dogs/._2.jpg'],
      ...['set/cats/b.png', 'set/cats/a.webp', 'set/cats/deep/c.TIFF', 'set/cats/deep er/d.bmp', 'set/cats/.cache/e.png'],
      ...['set/README.md', 'set/loose.jpg', 'set/.git/HEAD', 'set/Zebras/z.pgm', 'set/empty/readme.txt'],
      ...['elsewhere/linked/l.ppm', 'flat/only.jpg', 'none/.hidden/x.jpg'],
    ];
    for (const file of files) await touch(file);
    await symlink(temp.at('elsewhere', 'linked'), temp.at('set', 'linked'));
    // A link back up the tree: os.walk(followlinks=True) would go round it until ELOOP.
    await symlink(temp.at('set', 'cats'), temp.at('set', 'cats', 'deep', 'loop'));
  });

  it('lists classes and files in torchvision order, with the class index of each', async () => {
    const layout = await scanImageFolder(temp.at('set'));
    // Sorted by code point: upper case before lower case; linked folders are classes too.
    expect(layout.classes).toEqual(['Zebras', 'cats', 'dogs', 'empty', 'linked']);
    expect(layout.files.map((f) => [relative(f.path), f.classIndex])).toEqual([
      ['set/Zebras/z.pgm', 0],
      // The class folder's own files, then its subfolders sorted by path ('cats/deep' < 'cats/deep er').
      ['set/cats/a.webp', 1],
      ['set/cats/b.png', 1],
      ['set/cats/deep/c.TIFF', 1],
      ['set/cats/deep er/d.bmp', 1],
      // '10' < '2' by code point; extensions in any case.
      ['set/dogs/10.JPEG', 2],
      ['set/dogs/2.jpg', 2],
      ['set/linked/l.ppm', 4],
    ]);
    // .hidden.png, ._2.jpg, .cache/, .git/ | notes.txt, anim.gif, readme.txt | README.md, loose.jpg.
    expect(layout.ignored).toEqual({ hidden: 4, notImage: 3, outsideClasses: 2 });
  });

  it('names a missing folder, a file, and a folder without class subfolders, in one line', async () => {
    const cases: Array<[string, RegExp]> = [
      ['missing', /missing: cannot read the image folder \(no such folder\); expected <folder>\/<class>\/<image file>, as torchvision ImageFolder reads$/],
      ['set/README.md', /README\.md: cannot read the image folder \(not a folder but a file\)/],
      ['flat', /flat: no class subfolders \(only 1 file\(s\) directly in it\); put the images in one subfolder per class, e\.g\. .*flat\/cats\/1\.jpg$/],
      ['none', /none: no class subfolders \(it is empty\)/],
    ];
    for (const [folder, message] of cases) {
      const error = await scanImageFolder(temp.at(folder)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ImageFolderError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain('\n');
    }
  });
});

describe('name rules', () => {
  it("takes torchvision's IMG_EXTENSIONS in any case and nothing else", () => {
    for (const name of ['a.jpg', 'a.JPEG', 'a.Png', 'a.ppm', 'a.bmp', 'a.pgm', 'a.tif', 'a.tiff', 'a.webp']) expect(hasImageExtension(name)).toBe(true);
    for (const name of ['a.gif', 'a.txt', 'jpg', 'a.jpg.txt', 'a.avif']) expect(hasImageExtension(name)).toBe(false);
  });

  it("sorts by code point, as Python's sorted() does, not by UTF-16 unit", () => {
    // U+FF21 (fullwidth A) is one UTF-16 unit above the surrogates of U+1F600, but a lower code point.
    expect(['\u{1F600}', '\uFF21', 'b', 'B'].sort(byCodePoint)).toEqual(['B', 'b', '\uFF21', '\u{1F600}']);
  });
});
