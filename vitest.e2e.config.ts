import type { ViteUserConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * The end-to-end files that time nothing: each checks refusals, exit codes, files written or
 * kept, streams, or exact metrics (bytes, counts) of what it measured, never a time or a verdict
 * that a time decides. They run side by side, two at a time; every other e2e file (those that time
 * a step, gate on a ratio or hold a deadline: the pack test, doctor, the other-CPU verdicts, the
 * signal and interrupt files) runs after them, one at a time, alone on the
 * machine as before. A file that watches Chromiums watches only its own (test/support/chromium.ts). special-files gives each case
 * 30 s: it ran with the serial ones while a refused CLI start cost 1.2-2 s (the entry loaded tfjs
 * and vitest); a refusal now loads neither (light-start.e2e.test.ts), about 0.3 s of CPU a start.
 */
export const SIDE_BY_SIDE_E2E = [
  'src/cli/bad-input.e2e.test.ts',
  'src/cli/exit-codes.e2e.test.ts',
  'src/cli/overwrite.e2e.test.ts',
  'src/cli/questions.e2e.test.ts',
  'src/cli/report-kit-folder.e2e.test.ts',
  'src/cli/light-start.e2e.test.ts',
  'src/cli/special-files.e2e.test.ts',
  'src/cli/one-stream.e2e.test.ts',
  'src/cli/raw-argv.e2e.test.ts',
  'src/cli/full-disk.e2e.test.ts',
  'src/cli/bare-gtp.e2e.test.ts',
  'src/cli/history.e2e.test.ts',
  'src/cli/exports.e2e.test.ts',
  'src/cli/streams.e2e.test.ts',
  'src/cli/doctor-browser.e2e.test.ts',
  // Real measuring processes whose checks are exact (bytes, records accepted, what is printed),
  // never a time or a verdict a time decides: side by side since the two jobs (issue 49).
  'src/cli/browser.e2e.test.ts',
  'src/kit/kit.e2e.test.ts',
  'src/cli/missing-tool.e2e.test.ts',
  'src/cli/console-output.e2e.test.ts',
  'src/cli/direction.e2e.test.ts',
  'src/cli/ab-browser.e2e.test.ts',
  'src/cli/perf/measure.e2e.test.ts',
  'src/runner/measure-host.e2e.test.ts',
  'src/cli/tensorflow.e2e.test.ts',
  // Its deadlines are on pages that never finish (a frozen loop, a test that never settles): 15 and
  // 40 s against a page that starts in about 3 s on the faster CI machine (10 s on the slower), and
  // the frozen page's message is accepted either way it can come, so another file beside it cannot
  // move the verdict; most of its minute is waiting, which the other worker fills (issue 49).
  'src/cli/browser-lost.e2e.test.ts',
];

const SETUP = './test/support/built-cli.setup.ts';

/** The harness's config (vitest.config.ts) with its own files and settings in place of base's (mergeConfig would append the include). */
const project = (test: NonNullable<ViteUserConfig['test']>): ViteUserConfig => ({ ...base, test: { ...base.test, globalSetup: [SETUP], ...test } });

/**
 * `npm run test:perf`'s end-to-end tests (src/**\/*.e2e.test.ts): the harness's config in two
 * groups, side by side first, then serial (sequence.groupOrder), with a global setup that packs
 * and builds the harness once for both (test/support/built-cli.setup.ts), so the tests spawn
 * built JavaScript (test/support/cli.ts) and the pack test installs that tarball.
 */
export default {
  test: {
    projects: [
      project({
        name: 'e2e side by side',
        include: SIDE_BY_SIDE_E2E,
        fileParallelism: true,
        maxWorkers: 2,
        sequence: { ...base.test?.sequence, groupOrder: 0 },
      }),
      project({
        name: 'e2e serial',
        include: ['src/**/*.e2e.test.ts'],
        exclude: ['**/node_modules/**', ...SIDE_BY_SIDE_E2E],
        sequence: { ...base.test?.sequence, groupOrder: 1 },
      }),
    ],
  },
} satisfies ViteUserConfig;
