/**
 * The kernel's CPU list format ('0-3,8-11', man 7 cpuset "List format"), as in sysfs
 * local_cpulist and /proc/<pid>/status Cpus_allowed_list.
 */

/** The CPU numbers of a list ('0-2,8' -> [0, 1, 2, 8]); null when the text is not a list. */
export function parseCpuList(text: string): number[] | null {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  const cpus: number[] = [];
  for (const part of trimmed.split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) return null;
    const lo = Number(m[1]);
    const hi = m[2] === undefined ? lo : Number(m[2]);
    if (hi < lo) return null;
    for (let cpu = lo; cpu <= hi; cpu++) cpus.push(cpu);
  }
  return cpus;
}

/** Cpus_allowed_list from the text of /proc/<pid>/status ('Cpus_allowed_list:\t0-127'); null when absent. */
export function allowedCpusFromStatus(status: string): { text: string; cpus: number[] } | null {
  const m = /^Cpus_allowed_list:\s*(.*)$/m.exec(status);
  if (!m) return null;
  const cpus = parseCpuList(m[1]!);
  return cpus === null ? null : { text: m[1]!.trim(), cpus };
}

/** How a set of CPUs (the process's) relates to another (the device's local ones). */
export function cpuOverlap(allowed: readonly number[], local: readonly number[]): 'within' | 'disjoint' | 'partly' {
  const localSet = new Set(local);
  const inside = allowed.filter((c) => localSet.has(c)).length;
  if (inside === allowed.length) return 'within';
  return inside === 0 ? 'disjoint' : 'partly';
}
