import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/** A folder of a test file's own under the system's temp folder: its path, and paths inside it. */
export interface TempFolder {
  /** The folder (read in a test or hook: it exists from the first beforeAll of the file). */
  readonly path: string;
  /** A path inside the folder. */
  at(...parts: string[]): string;
}

/**
 * The temp folder of the calling file (or describe block): made by a beforeAll registered here,
 * so before the file's own beforeAll hooks that come after this call, and removed with all it
 * holds after the last test. Call it where the folder's hooks belong: at the top of the file, or
 * in a describe.
 */
export function tempFolder(prefix: string): TempFolder {
  let path: string | undefined;
  beforeAll(async () => {
    path = await mkdtemp(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    if (path) await rm(path, { recursive: true, force: true });
  });
  const folder = (): string => {
    if (path === undefined) throw new Error(`tempFolder('${prefix}'): read before its beforeAll ran (use it inside a hook or test)`);
    return path;
  };
  return {
    get path() {
      return folder();
    },
    at: (...parts) => join(folder(), ...parts),
  };
}
