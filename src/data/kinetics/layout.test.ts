import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { KineticsDataError } from './errors.js';
import { scanKinetics } from './layout.js';

const run = promisify(execFile);

describe('scanKinetics', () => {
  let root = '';
  /** Creates an empty file (and its folders) under root. */
  const touch = async (path: string) => {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), '');
  };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'kinetics-layout-'));
    for (const file of ['train/b_class/2.mp4', 'train/b_class/10.mp4', 'train/b_class/notes.txt', 'train/a_class/x.AVI', 'train/a_class/sub/y.mp4'])
      await touch(file);
    await touch('train/README');
    await touch('empty/only_class/readme.txt');
    await touch('flat/video.mp4');
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('sorts classes by name and lists videos per class as torchvision make_dataset does', async () => {
    const layout = await scanKinetics(root, 'train');
    expect(layout.classes).toEqual(['a_class', 'b_class']);
    // Files by code point ('10' < '2'), the class folder before its subfolders, other files ignored.
    expect(layout.videos.map((v) => [v.path.slice(root.length + 1), v.classIndex])).toEqual([
      ['train/a_class/x.AVI', 0],
      ['train/a_class/sub/y.mp4', 0],
      ['train/b_class/10.mp4', 1],
      ['train/b_class/2.mp4', 1],
    ]);
  });

  it('names a missing split, a file given as a folder, no class folders, and a class without videos', async () => {
    await expect(scanKinetics(root, 'test')).rejects.toThrow(KineticsDataError);
    await expect(scanKinetics(root, 'test')).rejects.toThrow(
      /test: cannot read the "test" split folder \(no such folder\); expected the layout <root>\/<split>\/<class>\/<video>\.mp4/,
    );
    await expect(scanKinetics(join(root, 'train'), 'README')).rejects.toThrow(/README: cannot read the "README" split folder \(not a folder\)/);
    await expect(scanKinetics(root, 'flat')).rejects.toThrow(/flat: no class folders in it/);
    await expect(scanKinetics(root, 'empty')).rejects.toThrow(/no \.mp4 or \.avi file in the class folder\(s\) only_class/);
  });

  // Root reads any folder whatever its mode (capabilities CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH),
  // so as root (CI) the check runs in a child process without those two capabilities (util-linux
  // setpriv): still uid 0, so it reads the checkout wherever it is, but the folder's mode applies.
  it('names a class folder it may not read', async () => {
    await touch('locked/cls/v.mp4');
    await chmod(join(root, 'locked', 'cls'), 0o000);
    try {
      if (process.getuid?.() !== 0) {
        await expect(scanKinetics(root, 'locked')).rejects.toThrow(/cls: cannot read the class folder \(permission denied\)/);
        return;
      }
      const script = `import { scanKinetics } from ${JSON.stringify(join(import.meta.dirname, 'layout.ts'))};
        scanKinetics(${JSON.stringify(root)}, 'locked').then(() => console.log('no error'), (e) => console.log(e.message));`;
      const { stdout } = await run(
        'setpriv',
        ['--bounding-set', '-dac_override,-dac_read_search', process.execPath, '--import', 'tsx', '--input-type=module', '-e', script],
        { cwd: join(import.meta.dirname, '../../..') },
      );
      expect(stdout).toMatch(/cls: cannot read the class folder \(permission denied\)/);
    } finally {
      await chmod(join(root, 'locked', 'cls'), 0o755);
    }
  });
});
