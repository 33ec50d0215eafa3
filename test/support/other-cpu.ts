// The real CLI on this machine as if its CPU were another model: a crafted /proc/cpuinfo bound
// over the real one in a private mount namespace (`unshare --mount`, as root), which is what
// Node's os.cpus() reads, and so what a profile id is made of (backend/hardware-profile.ts
// hostCpuModel). Used by src/cli/other-cpu.e2e.test.ts and src/cli/doctor.e2e.test.ts.
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** The other CPU the tests pose as: a model no committed baseline records, and the lavapipe profile it gives on 2 cores. */
export const OTHER_CPU_MODEL = 'Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz';
export const OTHER_CPU_LAVAPIPE_ID = 'webgpu-lavapipe-intel-xeon-platinum-2c-x64';

/** A command prefix that runs what follows it as another CPU, or why this machine cannot. */
export type OtherCpu = { readonly wrap: readonly string[]; readonly unavailable: null } | { readonly wrap: null; readonly unavailable: string };

/**
 * Writes `dir`/`name` (this machine's /proc/cpuinfo with every 'model name' replaced by `model`:
 * the rest, flags included, stays real) and returns the prefix that runs a command with it over
 * /proc/cpuinfo, in a mount namespace of its own (nothing else sees it), on the first `cores`
 * CPUs (taskset: os.availableParallelism() counts the affinity), so a profile names `cores` cores.
 * The prefix is tried once (`true`); where it fails (no taskset or unshare, not root, no mount
 * namespaces, fewer cores) the reason is returned instead, for a test to skip with.
 */
export async function asOtherCpu(dir: string, name: string, model: string, cores: number): Promise<OtherCpu> {
  const cpuinfo = join(dir, name);
  await writeFile(cpuinfo, (await readFile('/proc/cpuinfo', 'utf8')).replace(/^model name\s*:.*$/gm, `model name\t: ${model}`));
  if (availableParallelism() < cores) return { wrap: null, unavailable: `this machine has fewer than ${cores} cores, the ${cores} asked for` };
  const cpus = Array.from({ length: cores }, (_, i) => i).join(',');
  const wrap = ['taskset', '-c', cpus, 'unshare', '--mount', 'sh', '-c', 'mount --bind "$0" /proc/cpuinfo && exec "$@"', cpuinfo];
  try {
    await promisify(execFile)(wrap[0]!, [...wrap.slice(1), 'true']);
    return { wrap, unavailable: null };
  } catch (error) {
    const why = (error as Error).message.split('\n')[0];
    return { wrap: null, unavailable: `unshare --mount with a bind mount over /proc/cpuinfo failed here (needs taskset, root and mount namespaces): ${why}` };
  }
}
