import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** One shared library TensorFlow's CUDA build loads, and the pip package that ships it. */
export interface CudaLibrary {
  readonly soname: string;
  /** The `nvidia-*` wheel of the tensorflow wheel's `and-cuda` extra that holds it (under site-packages/nvidia/<part>/lib); null where none does. */
  readonly pipPackage: string | null;
}

/** What one TensorFlow release's CUDA build needs from CUDA. */
export interface CudaRequirement {
  /** TensorFlow major.minor this applies to. */
  readonly tensorflow: string;
  readonly cuda: string;
  readonly cudnn: string;
  readonly libraries: readonly CudaLibrary[];
}

/**
 * TensorFlow 2.21 (what `npm run setup:tensorflow` installs): its CUDA build is the `tensorflow`
 * wheel, whose `and-cuda` extra names the CUDA 12 `nvidia-*-cu12` packages (cudnn 9) listed here
 * with the sonames of their CUDA 12 releases (cuda-nvcc ships ptxas, no library). UNVERIFIED on a
 * GPU: pip's index here has only tensorflow-cpu and CUDA 13 packages, and a lent GPU machine
 * reaches no registry (shared/facts/tensorflow-from-pip.md).
 */
export const TF_2_21_CUDA: CudaRequirement = {
  tensorflow: '2.21',
  cuda: '12',
  cudnn: '9',
  libraries: [
    { soname: 'libcudart.so.12', pipPackage: 'nvidia-cuda-runtime-cu12' },
    { soname: 'libcudnn.so.9', pipPackage: 'nvidia-cudnn-cu12' },
    { soname: 'libcublas.so.12', pipPackage: 'nvidia-cublas-cu12' },
    { soname: 'libcublasLt.so.12', pipPackage: 'nvidia-cublas-cu12' },
    { soname: 'libcufft.so.11', pipPackage: 'nvidia-cufft-cu12' },
    { soname: 'libcurand.so.10', pipPackage: 'nvidia-curand-cu12' },
    { soname: 'libcusolver.so.11', pipPackage: 'nvidia-cusolver-cu12' },
    { soname: 'libcusparse.so.12', pipPackage: 'nvidia-cusparse-cu12' },
    { soname: 'libcupti.so.12', pipPackage: 'nvidia-cuda-cupti-cu12' },
    { soname: 'libnvrtc.so.12', pipPackage: 'nvidia-cuda-nvrtc-cu12' },
    { soname: 'libnvJitLink.so.12', pipPackage: 'nvidia-nvjitlink-cu12' },
    { soname: 'libnccl.so.2', pipPackage: 'nvidia-nccl-cu12' },
  ],
};

/**
 * TensorFlow 2.9.1, the libtensorflow tfjs-node(-gpu) 4.22's own install script downloads: built
 * against CUDA 11.2 and cuDNN 8.1 (tfjs-node README, "GPU support").
 */
export const TF_2_9_CUDA: CudaRequirement = {
  tensorflow: '2.9',
  cuda: '11.2',
  cudnn: '8.1',
  libraries: [
    { soname: 'libcudart.so.11.0', pipPackage: null },
    { soname: 'libcudnn.so.8', pipPackage: null },
  ],
};

/** The TensorFlow version `npm run setup:tensorflow` installs (scripts/setup-tensorflow.sh TF_VERSION). */
export const SETUP_TENSORFLOW_VERSION = '2.21.0';

/** What the CUDA build of TensorFlow `version` (TF_Version; null: the set-up's) needs; 2.21's for any other release. */
export function cudaRequirementFor(version: string | null): CudaRequirement {
  return (version ?? SETUP_TENSORFLOW_VERSION).startsWith('2.9.') ? TF_2_9_CUDA : TF_2_21_CUDA;
}

/** The sonames of a requirement, for locateLibraries. */
export function cudaSonames(requirement: CudaRequirement): string[] {
  return requirement.libraries.map((l) => l.soname);
}

/** Where one library was found on the loader path, or null. */
export interface LibraryLocation {
  readonly name: string;
  /** A path, or null when neither the ldconfig cache nor LD_LIBRARY_PATH has it. */
  readonly path: string | null;
  readonly via: 'ldconfig' | 'LD_LIBRARY_PATH' | null;
}

/**
 * Paths `ldconfig -p` lists for `name`. Its lines read
 * `\tlibcudart.so.11.0 (libc6,x86-64) => /usr/local/cuda/lib64/libcudart.so.11.0`.
 */
export function pathsInLdconfig(ldconfigOutput: string, name: string): string[] {
  return ldconfigOutput
    .split('\n')
    .map((line) => /^\s*(\S+)\s+\(.*\)\s+=>\s+(\S+)\s*$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && m[1] === name)
    .map((m) => m[2]!);
}

/** The first LD_LIBRARY_PATH folder holding `name`, or null. */
export function findInLibraryPath(ldLibraryPath: string | undefined, name: string, exists: (path: string) => boolean = existsSync): string | null {
  for (const dir of (ldLibraryPath ?? '').split(':').filter(Boolean)) {
    if (exists(join(dir, name))) return join(dir, name);
  }
  return null;
}

/** Locates each library in the ldconfig cache output, then in LD_LIBRARY_PATH. */
export function locateLibraries(
  names: readonly string[],
  ldconfigOutput: string,
  ldLibraryPath: string | undefined,
  exists: (path: string) => boolean = existsSync,
): LibraryLocation[] {
  return names.map((name) => {
    const cached = pathsInLdconfig(ldconfigOutput, name)[0];
    if (cached) return { name, path: cached, via: 'ldconfig' };
    const listed = findInLibraryPath(ldLibraryPath, name, exists);
    return listed ? { name, path: listed, via: 'LD_LIBRARY_PATH' } : { name, path: null, via: null };
  });
}

// Debian and Ubuntu keep ldconfig in /sbin (/usr/sbin after usrmerge); a user's PATH often lacks both.
const LDCONFIG_CANDIDATES = ['/sbin/ldconfig', '/usr/sbin/ldconfig', 'ldconfig'];

/** Output of `ldconfig -p` (read-only: it prints the cache), or null with why it could not run. */
export async function readLdconfigCache(): Promise<{ output: string | null; error: string | null }> {
  let lastError = 'not found';
  for (const command of LDCONFIG_CANDIDATES) {
    if (command.startsWith('/') && !existsSync(command)) continue;
    const result = await new Promise<{ output: string | null; error: string | null }>((resolve) => {
      execFile(command, ['-p'], { encoding: 'utf8', timeout: 10_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
        resolve(error ? { output: null, error: (error as NodeJS.ErrnoException).code?.toString() ?? error.message } : { output: stdout, error: null });
      });
    });
    if (result.output !== null) return result;
    lastError = result.error ?? lastError;
  }
  return { output: null, error: `ldconfig could not be run (${lastError})` };
}
