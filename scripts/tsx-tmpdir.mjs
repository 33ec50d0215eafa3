/**
 * Loaded before tsx by the npm scripts that run the CLI from its sources
 * (`exec node --import ./scripts/tsx-tmpdir.mjs --import tsx src/cli/main.ts ...`).
 *
 * tsx's loader keeps its compiled files in a cache folder in the temp folder ($TMPDIR/tsx-<uid>)
 * and, when it cannot make it (a TMPDIR on a read-only file system), crashes with a stack before
 * the CLI's first line runs (issue 51). Where no folder can be made in the temp folder, this turns
 * that cache off (TSX_DISABLE_CACHE, which tsx's loader reads when it starts, after this), so the
 * CLI starts and refuses in one line naming TMPDIR, exit 2, as the built `gtp` does
 * (src/cli/main.ts, tempFolderProblem in src/cli/args.ts). Plain JavaScript: it runs before tsx.
 */
import { mkdtempSync, rmdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

try {
  rmdirSync(mkdtempSync(join(tmpdir(), 'gtp-tsx-probe-')));
} catch {
  process.env.TSX_DISABLE_CACHE = '1';
}
