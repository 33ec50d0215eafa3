import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The shared libraries tfjs-node-gpu 4.22 loads for the GPU: its libtensorflow 2.9 is built
 * against CUDA 11.2 and cuDNN 8.1 (tfjs-node README, "GPU support"; TensorFlow's tested build
 * configurations). Without them TensorFlow silently runs on the CPU.
 */
export const CUDA_LIBRARIES = ['libcudart.so.11.0', 'libcudnn.so.8'] as const;

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
