import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { KineticsDataError } from './errors.js';
import { scanKinetics } from './layout.js';
import { tempFolder } from '../../../test/support/temp-folder.js';

const run = promisify(execFile);

describe('scanKinetics', () => {
  const temp = tempFolder('kinetics-layout-');
  /** Creates an empty file (and its folders) under root. */
  const touch = async (path: string) => {
    await mkdir(temp.at(path, '..'), { recursive: true });
    await writeFile(temp.at(path), '');
  };

  beforeAll(async () => {
    for (const file of ['train/b_class/2.mp4', 'train/b_class/10.mp4', 'train/b_class/notes.txt', 'train/a_class/x.AVI', 'train/a_class/sub/y.mp4'])
      await touch(file);
    await touch('train/README');
    await touch('empty/only_class/readme.txt');
    await touch('flat/video.mp4');
  });

  it('sorts classes by name and lists videos per class as torchvision make_dataset does', async () => {
    const layout = await scanKinetics(temp.path, 'train');
    expect(layout.classes).toEqual(['a_class', 'b_class']);
    // Files by code point ('10' < '2'), the class folder before its subfolders, other files ignored.
    expect(layout.videos.map((v) => [v.path.slice(temp.path.length + 1), v.classIndex])).toEqual([
      ['train/a_class/x.AVI', 0],
      ['train/a_class/sub/y.mp4', 0],
      ['train/b_class/10.mp4', 1],
      ['train/b_class/2.mp4', 1],
    ]);
  });

  it('names a missing split, a file given as a folder, no class folders, and a class without videos', async () => {
    await expect(scanKinetics(temp.path, 'test')).rejects.toThrow(KineticsDataError);
    await expect(scanKinetics(temp.path, 'test')).rejects.toThrow(
      /test: cannot read the "test" split folder \(no such folder\); expected the layout <root>\/<split>\/<class>\/<video>\.mp4/,
    );
    await expect(scanKinetics(temp.at('train'), 'README')).rejects.toThrow(/README: cannot read the "README" split folder \(not a folder\)/);
    await expect(scanKinetics(temp.path, 'flat')).rejects.toThrow(/flat: no class folders in it/);
    await expect(scanKinetics(temp.path, 'empty')).rejects.toThrow(/no \.mp4 or \.avi file in the class folder\(s\) only_class/);
  });

  // Root reads any folder whatever its mode (capabilities CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH),
  // so as root (CI) the check runs in a child process without those two capabilities (util-linux
  // setpriv): still uid 0, so it reads the checkout wherever it is, but the folder's mode applies.
  it('names a class folder it may not read', async () => {
    await touch('locked/cls/v.mp4');
    await chmod(temp.at('locked', 'cls'), 0o000);
    try {
      if (process.getuid?.() !== 0) {
        await expect(scanKinetics(temp.path, 'locked')).rejects.toThrow(/cls: cannot read the class folder \(permission denied\)/);
        return;
      }
      const script = `import { scanKinetics } from ${JSON.stringify(join(import.meta.dirname, 'layout.ts'))};
        scanKinetics(${JSON.stringify(temp.path)}, 'locked').then(() => console.log('no error'), (e) => console.log(e.message));`;
      const { stdout } = await run(
        'setpriv',
        ['--bounding-set', '-dac_override,-dac_read_search', process.execPath, '--import', 'tsx', '--input-type=module', '-e', script],
        { cwd: join(import.meta.dirname, '../../..') },
      );
      expect(stdout).toMatch(/cls: cannot read the class folder \(permission denied\)/);
    } finally {
      await chmod(temp.at('locked', 'cls'), 0o755);
    }
  });
});
