import { describe, expect, it } from 'vitest';
import { cudaSonames, TF_2_9_CUDA, TF_2_21_CUDA, findInLibraryPath, locateLibraries, pathsInLdconfig } from './cuda.js';

// The format of `ldconfig -p` on Debian/Ubuntu (glibc): a count line, then one line per library.
const LDCONFIG = `1203 libs found in cache \`/etc/ld.so.cache'
\tlibcudnn.so.8 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcudnn.so.8
\tlibcudart.so.12 (libc6,x86-64) => /usr/local/cuda-12/lib64/libcudart.so.12
\tlibc.so.6 (libc6,x86-64, OS ABI: Linux 3.2.0) => /lib/x86_64-linux-gnu/libc.so.6
`;

describe('CUDA libraries on the loader path', () => {
  it('reads paths out of ldconfig -p, matching the exact soname', () => {
    expect(pathsInLdconfig(LDCONFIG, 'libcudnn.so.8')).toEqual(['/usr/lib/x86_64-linux-gnu/libcudnn.so.8']);
    expect(pathsInLdconfig(LDCONFIG, 'libc.so.6')).toEqual(['/lib/x86_64-linux-gnu/libc.so.6']);
    // CUDA 12's runtime is not CUDA 11.2's: TensorFlow 2.9.1 loads libcudart.so.11.0, 2.21 libcudart.so.12.
    expect(pathsInLdconfig(LDCONFIG, 'libcudart.so.11.0')).toEqual([]);
    expect(pathsInLdconfig(LDCONFIG, cudaSonames(TF_2_21_CUDA)[0]!)).toEqual(['/usr/local/cuda-12/lib64/libcudart.so.12']);
  });

  it('falls back to LD_LIBRARY_PATH folders, in order, skipping empty entries', () => {
    const present = new Set(['/opt/cuda-11.2/lib64/libcudart.so.11.0', '/b/libcudart.so.11.0']);
    const exists = (p: string) => present.has(p);
    expect(findInLibraryPath('::/a:/opt/cuda-11.2/lib64:/b', 'libcudart.so.11.0', exists)).toBe('/opt/cuda-11.2/lib64/libcudart.so.11.0');
    expect(findInLibraryPath(undefined, 'libcudart.so.11.0', exists)).toBeNull();
    expect(locateLibraries(cudaSonames(TF_2_9_CUDA), LDCONFIG, '/opt/cuda-11.2/lib64', exists)).toEqual([
      { name: 'libcudart.so.11.0', path: '/opt/cuda-11.2/lib64/libcudart.so.11.0', via: 'LD_LIBRARY_PATH' },
      { name: 'libcudnn.so.8', path: '/usr/lib/x86_64-linux-gnu/libcudnn.so.8', via: 'ldconfig' },
    ]);
    expect(locateLibraries(['libcudart.so.11.0'], '', '', exists)).toEqual([{ name: 'libcudart.so.11.0', path: null, via: null }]);
  });
});
