/**
 * The profile `perf:history` draws when history/ holds several and none is asked for (issue 51:
 * the committed history/ holds three profiles whose ids end in the CI machine's CPU part, the
 * Node lavapipe one and two Chromium ones, and the command stopped there).
 *
 * The rule, read from the ids alone (no device is started; the command stays light):
 *   1. It is this machine's Node profile, the one `npm run perf` records here: of the profiles
 *      not made in a browser (`perf --browser` records those), those whose id names this
 *      machine's CPU (a software adapter such as lavapipe, and TensorFlow's CPU kernels, with the
 *      core count; wasm and cpu with the model alone) and architecture.
 *   2. Where several do, the backend `--backend auto` tries first: webgpu, tensorflow, wasm, cpu
 *      (then the first by name).
 *   3. Where none does, the only GPU profile of this architecture (a GPU's id names no CPU, so any
 *      machine with that GPU draws it).
 *   4. Otherwise none: the command lists them and `--profile` chooses.
 */
import { cpuPart, cpuSlug } from '../backend/fingerprint.js';
import { commandLine } from '../base/commands.js';

/** What the rule reads of the machine (os.cpus()[0].model, os.availableParallelism(), os.arch()). */
export interface HistoryHost {
  readonly cpuModel: string;
  readonly cores: number;
  readonly arch: string;
}

/** The profile drawn, why (one clause), and the others there; or none, and why. */
export type DefaultProfile =
  | { readonly profile: string; readonly why: string; readonly others: readonly string[] }
  | { readonly profile: null; readonly why: string };

/** The order in which `--backend auto` tries the Node backends (backend/start.ts); cpu only when asked. */
const AUTO_ORDER = ['webgpu', 'tensorflow', 'wasm', 'cpu'] as const;

// A browser's id: '<webgpu|webgl>-<browser>-<major>-...' (backend/fingerprint.ts profileId).
const IN_BROWSER = /^(?:webgpu|webgl)-(?:chromium|chrome|msedge|firefox|webkit)-\d+-/;
// A WebGPU id whose adapter is the CPU: a software rasterizer (with or without its CPU part).
const SOFTWARE_WEBGPU = /^webgpu-(?:lavapipe|swiftshader|warp|software)-/;

const archSlug = (arch: string) => arch.toLowerCase().replace(/[^a-z0-9]+/g, '-');
const backendOf = (id: string) => AUTO_ORDER.indexOf(id.split('-')[0] as (typeof AUTO_ORDER)[number]);

/** Whether `id` is a Node profile that names this host: its CPU part (or model) and architecture. */
function namesThisHost(id: string, host: HistoryHost): boolean {
  if (IN_BROWSER.test(id)) return false;
  const arch = archSlug(host.arch);
  const model = cpuSlug(host.cpuModel);
  return id.endsWith(`-${cpuPart(host.cpuModel, host.cores)}-${arch}`) || id === `wasm-${model}-${arch}` || id === `cpu-${model}-${arch}`;
}

/** Whether `id` is a Node profile of a GPU on this architecture: 'webgpu-nvidia-h200-x64', 'tensorflow-cuda-x64'. */
function gpuOfThisArch(id: string, host: HistoryHost): boolean {
  const arch = archSlug(host.arch);
  if (IN_BROWSER.test(id) || !id.endsWith(`-${arch}`)) return false;
  if (id === `tensorflow-cuda-${arch}`) return true;
  return id.startsWith('webgpu-') && !SOFTWARE_WEBGPU.test(id) && !id.startsWith('webgpu-unknown-adapter-');
}

/** The rule above, on the profile ids of a history (more than one). */
export function defaultHistoryProfile(profiles: readonly string[], host: HistoryHost): DefaultProfile {
  const cpu = `${cpuPart(host.cpuModel, host.cores)}, ${archSlug(host.arch)}`;
  const others = (p: string) => profiles.filter((o) => o !== p);
  const mine = profiles.filter((p) => namesThisHost(p, host)).sort((a, b) => backendOf(a) - backendOf(b) || a.localeCompare(b));
  if (mine.length > 0) {
    const drawn = mine[0]!;
    const order =
      mine.length > 1
        ? `; of this machine's ${mine.join(', ')}: ${drawn.split('-')[0]} is the backend --backend auto tries first (webgpu, tensorflow, wasm)`
        : '';
    return {
      profile: drawn,
      why: `this machine's Node profile, the one ${commandLine('perf')} records here (its id names this CPU: ${cpu})${order}`,
      others: others(drawn),
    };
  }
  const gpus = profiles.filter((p) => gpuOfThisArch(p, host));
  if (gpus.length === 1) {
    const drawn = gpus[0]!;
    return {
      profile: drawn,
      why: `no Node profile there names this machine's CPU (${cpu}), and this is the only GPU profile of ${archSlug(host.arch)} (a GPU's id names no CPU: on another GPU, choose with --profile)`,
      others: others(drawn),
    };
  }
  return {
    profile: null,
    why: `none is this machine's Node profile: none names this CPU (${cpu}), and ${gpus.length === 0 ? `none is a GPU profile of ${archSlug(host.arch)}` : `several are GPU profiles of ${archSlug(host.arch)} (${gpus.join(', ')})`}`,
  };
}
