import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type GitState = { commit: string | null; dirty: boolean | null };

/**
 * The commit a kit (`npm run kit`) was built from, from its KIT.json: a kit is one commit's
 * files without .git, so its runs say which commit they measured. Null elsewhere.
 */
function kitState(cwd: string): GitState | null {
  try {
    const manifest = JSON.parse(readFileSync(join(cwd, 'KIT.json'), 'utf8')) as { git?: Partial<GitState> };
    const commit = manifest.git?.commit;
    return typeof commit === 'string' && /^[0-9a-f]{40}$/.test(commit) ? { commit, dirty: manifest.git?.dirty ?? null } : null;
  } catch {
    return null;
  }
}

/** The commit and dirtiness of the working tree (or of the commit a kit was built from); nulls outside both. */
export function gitState(cwd = process.cwd()): GitState {
  const git = (...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    // Untracked files count: a new, uncommitted perf file changes what a run measures.
    return { commit: git('rev-parse', 'HEAD'), dirty: git('status', '--porcelain').length > 0 };
  } catch {
    return kitState(cwd) ?? { commit: null, dirty: null };
  }
}
