import { execFileSync } from 'node:child_process';

/** The commit and dirtiness of the working tree; nulls outside a git checkout. */
export function gitState(cwd = process.cwd()): { commit: string | null; dirty: boolean | null } {
  const git = (...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    return { commit: git('rev-parse', 'HEAD'), dirty: git('status', '--porcelain', '--untracked-files=no').length > 0 };
  } catch {
    return { commit: null, dirty: null };
  }
}
