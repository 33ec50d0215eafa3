import { readdirSync, readFileSync } from 'node:fs';

/** This process's direct children, read from /proc (Linux); [] where /proc does not list them. */
export function childPids(pid: number = process.pid): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tasks.flatMap((task) => {
    try {
      return readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
    } catch {
      return [];
    }
  });
}

/** Every descendant of a process (children, their children, ...), read from /proc; [] where /proc does not list them. */
export function descendantPids(pid: number = process.pid): number[] {
  const found: number[] = [];
  for (let next = childPids(pid); next.length > 0; ) {
    found.push(...next);
    next = next.flatMap((child) => childPids(child));
  }
  return found;
}

/**
 * Whether a live descendant of this process was started with `argument` on its command line
 * (/proc/PID/cmdline; a zombie's is empty); false where /proc cannot tell.
 */
export function descendantWithArgument(argument: string, pid: number = process.pid): boolean {
  return descendantPids(pid).some((child) => commandLineOf(child).includes(argument));
}

/** A process's command line, argument by argument (/proc/PID/cmdline); [] for a zombie or where /proc cannot tell. */
export function commandLineOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}
