import { execFileSync } from 'node:child_process';

/** The commit and dirtiness of the working tree; nulls outside a git checkout. */
export function gitState(cwd = process.cwd()): { commit: string | null; dirty: boolean | null } {
  const git = (...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    // Untracked files count: a new, uncommitted perf file changes what a run measures.
    return { commit: git('rev-parse', 'HEAD'), dirty: git('status', '--porcelain').length > 0 };
  } catch {
    return { commit: null, dirty: null };
  }
}
