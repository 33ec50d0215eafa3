import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultHistoryProfile, type HistoryHost } from '../history/default-profile.js';
import { historyProfiles } from '../history/store.js';
import { tempFolder } from '../../test/support/temp-folder.js';
import { parseCommandLine } from './args.js';
import { historyCommand } from './history.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

// The committed history/ (issue 51: on the 2-core AMD EPYC CI machine three ids end in its CPU
// part, the Node lavapipe one and two Chromium ones, and `npm run perf:history` stopped, exit 2).
const LAVAPIPE_EPYC = 'webgpu-lavapipe-amd-epyc-2c-x64';
const LAVAPIPE_XEON = 'webgpu-lavapipe-intel-xeon-2c-x64';
const H200 = 'webgpu-nvidia-h200-x64';
const CHROMIUM = ['webgl-chromium-156-swiftshader-amd-epyc-2c-x64', 'webgpu-chromium-156-swiftshader-amd-epyc-2c-x64'];
const PROFILES = [...CHROMIUM, LAVAPIPE_EPYC, LAVAPIPE_XEON, H200];

const EPYC_2C: HistoryHost = { cpuModel: 'AMD EPYC', cores: 2, arch: 'x64' };
// The hosts of this project's machines, as their records give them.
const XEON_2C: HistoryHost = { cpuModel: 'Intel(R) Xeon(R) Processor', cores: 2, arch: 'x64' };
const H200_HOST: HistoryHost = { cpuModel: 'Intel(R) Xeon(R) Processor', cores: 16, arch: 'x64' };

describe("perf:history's default profile where the history holds several (history/default-profile.ts)", () => {
  it("is this machine's Node profile, never a browser's that names the same CPU", () => {
    const drawn = defaultHistoryProfile(PROFILES, EPYC_2C);
    expect(drawn).toMatchObject({ profile: LAVAPIPE_EPYC, others: [...CHROMIUM, LAVAPIPE_XEON, H200] });
    expect(drawn.why).toBe("this machine's Node profile, the one npm run perf records here (its id names this CPU: amd-epyc-2c, x64)");
    expect(defaultHistoryProfile(PROFILES, XEON_2C).profile).toBe(LAVAPIPE_XEON);
  });

  it('is, of several Node profiles of this CPU, the backend --backend auto tries first (webgpu, tensorflow, wasm)', () => {
    const ids = ['wasm-amd-epyc-x64', 'tensorflow-cpu-amd-epyc-2c-x64', LAVAPIPE_EPYC, ...CHROMIUM];
    const drawn = defaultHistoryProfile(ids, EPYC_2C);
    expect(drawn.profile).toBe(LAVAPIPE_EPYC);
    expect(drawn.why).toMatch(/; of this machine's webgpu-lavapipe-amd-epyc-2c-x64, tensorflow-cpu-amd-epyc-2c-x64, wasm-amd-epyc-x64: webgpu is the backend/);
    expect(defaultHistoryProfile(ids.slice(0, 2), EPYC_2C).profile).toBe('tensorflow-cpu-amd-epyc-2c-x64');
  });

  it("is, where no Node profile names this CPU, the only GPU profile of this architecture (the H200 machine's)", () => {
    const drawn = defaultHistoryProfile(PROFILES, H200_HOST);
    expect(drawn.profile).toBe(H200);
    expect(drawn.why).toMatch(/^no Node profile there names this machine's CPU \(intel-xeon-16c, x64\), and this is the only GPU profile of x64/);
  });

  it('is none where no Node profile names this CPU and no one GPU profile of this architecture is there: --profile chooses', () => {
    // Another core count, another architecture: the lavapipe ids name another device.
    expect(defaultHistoryProfile([...CHROMIUM, LAVAPIPE_EPYC], { ...EPYC_2C, cores: 4 })).toEqual({
      profile: null,
      why: "none is this machine's Node profile: none names this CPU (amd-epyc-4c, x64), and none is a GPU profile of x64",
    });
    expect(defaultHistoryProfile(PROFILES, { ...EPYC_2C, arch: 'arm64' }).profile).toBeNull();
    expect(defaultHistoryProfile([H200, 'tensorflow-cuda-x64'], EPYC_2C).why).toMatch(
      /several are GPU profiles of x64 \(webgpu-nvidia-h200-x64, tensorflow-cuda-x64\)$/,
    );
  });
});

describe("the README's `npm run perf:history` on this repository's committed history/", () => {
  const temp = tempFolder('gtp-history-readme-');
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('draws the lavapipe Node profile on the 2-core AMD EPYC CI machine, says why and lists the others, exit 0', async () => {
    // The README's line, as a user types it, through package.json's script to the CLI's arguments.
    const row = readFileSync(join(ROOT, 'README.md'), 'utf8')
      .split('\n')
      .find((l) => l.startsWith('| `npm run perf:history` |'));
    expect(row, "README.md's Commands table has no `npm run perf:history` row").toBeDefined();
    const script = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['perf:history']!;
    const argv = script.split(' ').slice(script.split(' ').indexOf('src/cli/main.ts') + 1);
    expect(argv).toEqual(['history']);
    const line = parseCommandLine(argv, {});
    if (line.command !== 'history') throw new Error(`parsed as ${line.command}`);
    // Every committed profile is there (a fresh clone's history/), and more than one.
    const committed = [
      ...new Set(
        execFileSync('git', ['ls-files', 'history'], { cwd: ROOT, encoding: 'utf8' })
          .split('\n')
          .map((f) => f.split('/')[1])
          .filter((p): p is string => p !== undefined && p !== 'README.md'),
      ),
    ];
    const history = join(ROOT, line.history);
    const there = await historyProfiles(history);
    expect(there).toEqual(expect.arrayContaining(committed));
    expect(committed).toEqual(expect.arrayContaining([LAVAPIPE_EPYC, ...CHROMIUM]));
    // Run in-process from the repository's root; the page goes to a temp folder, not results/.
    const out = temp.at('history.html');
    const printed: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void printed.push(a.join(' ')));
    const code = await historyCommand({ ...line, history, out }, ROOT, EPYC_2C);
    expect(code).toBe(0);
    expect(existsSync(out)).toBe(true);
    const others = there.filter((p) => p !== LAVAPIPE_EPYC);
    // Where history/ also holds this CPU's tensorflow profile, the line says why webgpu's was drawn.
    const mine = others.filter((p) => p.startsWith('tensorflow-') && p.endsWith('-amd-epyc-2c-x64'));
    const why =
      mine.length > 0
        ? `; of this machine's ${[LAVAPIPE_EPYC, ...mine].join(', ')}: webgpu is the backend --backend auto tries first (webgpu, tensorflow, wasm)`
        : '';
    expect(printed[0]).toBe(
      `${history}: drawing ${LAVAPIPE_EPYC}, this machine's Node profile, the one npm run perf records here (its id names this CPU: amd-epyc-2c, x64)${why}; also there: ${others.join(', ')} (choose one with --profile)`,
    );
    expect(printed[1]).toMatch(new RegExp(`^History of ${LAVAPIPE_EPYC}: \\d+ records in ${join(history, LAVAPIPE_EPYC)}\\.$`));
  }, 60_000);
});
