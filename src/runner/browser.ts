/**
 * The browser host (issue 43): runs perf files in headless Chromium through vitest's browser mode
 * (@vitest/browser-playwright, the ecosystem's way), with the system's Chromium, no download. The
 * Node side of it: which browser, its launch flags, what the page gets from Node (the CPU it
 * renders on, the MNIST images), and one launch per measuring process.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { BrowserCommand } from 'vitest/node';
import { nodeProfileHost } from '../backend/hardware-profile.js';
import type { ProfileHost } from '../backend/profile.js';
import { type CocoFiles, cocoSource } from '../data/coco/source.js';
import { mnistSource } from '../data/mnist/source.js';
import { readRegularFile } from '../base/regular-file.js';
import { shown, shownOutput } from '../base/shown.js';
import type { RunConfig } from '../run-config.js';
import type { BrowserCocoImages, BrowserImageFile, BrowserMnist } from '../suite/browser-session.js';
import { type BrowserName, BrowserSetupError, unsupportedBrowser } from './browser-names.js';
import { kineticsCommand } from './browser-kinetics.js';

export { type BrowserName, BrowserSetupError, SUPPORTED_BROWSERS } from './browser-names.js';

/** Where a Chromium is looked for when neither --browser-path nor GTP_BROWSER_PATH names one (Debian's, then others'). */
export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'] as const;

/** A browser the run can launch: what it is and where. */
export interface BrowserLaunch {
  readonly name: BrowserName;
  readonly path: string;
  /** `chromium --version`'s version, e.g. '156.0.8078.114'. */
  readonly version: string;
  readonly major: number;
  /** --browser-timeout: seconds after which a process whose page gave no result is stopped (default DEFAULT_BROWSER_TIMEOUT_S). */
  readonly timeoutS?: number;
}

/** The packages the page loads, bundled by Vite's optimizer before the page starts (a late one reloads it mid-run). */
const BROWSER_DEPENDENCIES = ['@tensorflow/tfjs', '@tensorflow/tfjs-core', '@tensorflow/tfjs-backend-webgpu', '@tensorflow/tfjs-backend-webgl'] as const;

/**
 * What Vite pre-bundles for the page. Here the page imports the harness's sources; in a user's
 * project it imports the installed package, which is served as its own files (excluded), so that
 * the page's one copy of the run's session is the one every perf file and the harness share; its
 * own packages are named (the `browser-entry-host-free` rule keeps them to tfjs, zod and pure-rand).
 */
export function browserOptimizeDeps(source: 'sources' | 'installed'): { include: string[]; exclude?: string[] } {
  if (source === 'sources') return { include: [...BROWSER_DEPENDENCIES] };
  return { include: [...BROWSER_DEPENDENCIES, ...HARNESS_PURE_IMPORTS.map((id) => `gpu-transfer-perf > ${id}`)], exclude: ['gpu-transfer-perf'] };
}

/**
 * The pure packages' specifiers the harness's page code imports, as written (pure-rand exports
 * subpaths only: its bare name does not resolve). browser.test.ts checks the list against src/.
 */
export const HARNESS_PURE_IMPORTS = [
  'zod',
  'pure-rand/distribution/uniformFloat64',
  'pure-rand/distribution/uniformInt',
  'pure-rand/generator/xoroshiro128plus',
  'pure-rand/utils/skipN',
] as const;

/**
 * Launch flags (shared/facts/browser-chromium.md): headless with WebGPU and WebGL both on
 * SwiftShader where there is no GPU (--use-angle=swiftshader; a real GPU is used where the
 * browser has one and these are dropped: docs/backends.md), no sandbox (containers), and nothing
 * that reaches a network (CI is offline).
 */
export const CHROMIUM_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--enable-unsafe-webgpu',
  '--enable-unsafe-swiftshader',
  '--use-angle=swiftshader',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
] as const;

/**
 * Whether `path` (links followed) is a regular file this process may execute. X_OK alone is not
 * enough: a directory passes it (its x bit is search), and spawning one failed with a raw
 * "spawnSync ... EACCES" (issue 51), where a FIFO or a file without x is said in words.
 */
function executable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The browser `--browser name` asks for, at `--browser-path`, else GTP_BROWSER_PATH, else the
 * first Chromium found; its version read from `--version`. Throws BrowserSetupError saying what
 * to install or name.
 */
export function findBrowser(name: string, named: { readonly path: string; readonly from: string } | null): BrowserLaunch {
  const unsupported = unsupportedBrowser(name);
  if (unsupported) throw new BrowserSetupError(unsupported);
  const how = 'install Chromium (Debian: apt-get install chromium; npm run setup:system does) or name one with --browser-path PATH (or GTP_BROWSER_PATH)';
  const found = named?.path ?? CHROMIUM_CANDIDATES.find(executable) ?? null;
  if (found === null) throw new BrowserSetupError(`--browser ${name}: no Chromium found at ${CHROMIUM_CANDIDATES.join(', ')}; ${how}`);
  const from = named?.from ?? 'found';
  // Each message one line, a quoted path or output cut after 200 characters (docs/usage.md).
  const at = shown(found);
  if (!executable(found)) throw new BrowserSetupError(`--browser ${name}: ${at} (${from}) is not an executable file; ${how}`);
  let output: string;
  try {
    output = execFileSync(found, ['--version'], { encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    throw new BrowserSetupError(`--browser ${name}: ${at} --version failed (${shown((error as Error).message.split('\n')[0] ?? '')}); ${how}`);
  }
  const version = output.match(/(\d+)\.\d+\.\d+\.\d+/);
  if (!version) throw new BrowserSetupError(`--browser ${name}: ${at} --version printed ${shownOutput(output)}, not a Chromium version; ${how}`);
  return { name: 'chromium', path: found, version: version[0], major: Number(version[1]) };
}

/**
 * Loads vitest's Playwright provider (an optional peer dependency: a project that never runs
 * --browser does not install it); missing, a BrowserSetupError saying what to install.
 */
export async function loadBrowserProvider(): Promise<typeof import('@vitest/browser-playwright')> {
  try {
    return await import('@vitest/browser-playwright');
  } catch (error) {
    throw new BrowserSetupError(
      `--browser needs vitest's Playwright provider, an optional peer dependency (${(error as Error).message.split('\n')[0]}): npm install --save-dev @vitest/browser-playwright@4.1.12 playwright@1.65.1 (neither downloads a browser)`,
    );
  }
}

/** What the page's profile says of its host: this Node host's CPU and OS, the browser, the packages the page loads. */
export function browserProfileHost(browser: BrowserLaunch): ProfileHost {
  const host = nodeProfileHost();
  // Dawn (the `webgpu` package), wasm and tfjs-node's TensorFlow do not run in the page: the browser's own WebGPU does.
  const {
    webgpu: _dawn,
    'tfjs-backend-wasm': _wasm,
    'tfjs-node': _tfjsNode,
    'tfjs-node-gpu': _tfjsNodeGpu,
    tensorflow: _tensorflow,
    ...versions
  } = host.versions;
  return { ...host, versions: { ...versions, [browser.name]: browser.version }, browser: { name: browser.name, major: browser.major } };
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** The page's command for the run's MNIST images: read here, where the files are (--mnist-dir or the package). */
function mnistCommand(config: () => RunConfig): BrowserCommand<[]> {
  return async (): Promise<BrowserMnist> => {
    const run = config();
    const given = (run.data[mnistSource.name] ?? null) as string | null;
    const data = await mnistSource.load(given);
    return {
      images: base64(data.images),
      labels: base64(data.labels),
      count: data.count,
      height: data.height,
      width: data.width,
      channels: data.channels,
      source: data.source,
      described: run.datasets[mnistSource.name] ?? mnistSource.defaultDescription,
    };
  };
}

/**
 * The page's command for the run's COCO images (--coco-root/--coco-ann, else the fixture): the first
 * `count` usable images' file bytes, for the page's own decoder, and sharp's pixels of each (the COCO
 * reader's decode), to compare the two decoders.
 */
function cocoCommand(config: () => RunConfig): BrowserCommand<[count: number]> {
  return async (_context, count): Promise<BrowserCocoImages> => {
    const run = config();
    const dataset = await cocoSource.load((run.data[cocoSource.name] ?? null) as CocoFiles | null);
    const images: BrowserImageFile[] = [];
    for (let i = 0; i < Math.min(count, dataset.count); i++) {
      const info = dataset.imageInfo(i);
      const [bytes, sample] = await Promise.all([readRegularFile(join(dataset.summary.imagesFolder, info.file_name)), dataset.load(i)]);
      images.push({ file: info.file_name, bytes: base64(bytes), pixels: base64(sample.pixels), height: info.height, width: info.width });
    }
    return { images, described: run.datasets[cocoSource.name] ?? cocoSource.defaultDescription };
  };
}

/** Commands a page may call besides the run's data, by name (vitest's BrowserCommand: Node-side functions, JSON in and out). */
// Payload never: each command declares its own arguments (the page's BrowserCommands say them).
export type PageCommands = Readonly<Record<string, BrowserCommand<never>>>;

/** The vitest test options that run the files in `browser` (one launch per vitest run), with the page's commands reading `config()`, and `more`. */
export async function browserTestOptions(browser: BrowserLaunch, config: () => RunConfig, more: PageCommands = {}) {
  const { playwright } = await loadBrowserProvider();
  return {
    browser: {
      enabled: true,
      headless: true,
      provider: playwright({ launchOptions: { executablePath: browser.path, args: [...CHROMIUM_FLAGS] } }),
      instances: [{ browser: browser.name }],
      commands: { ...more, gtpMnist: mnistCommand(config), gtpCocoImages: cocoCommand(config), gtpKineticsVideos: kineticsCommand(config, base64) },
      screenshotFailures: false,
    },
  };
}
