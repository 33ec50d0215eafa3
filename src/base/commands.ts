/**
 * How a command is typed where this harness runs. In its own repository it runs from its
 * sources through tsx, and its commands are npm scripts (`npm run perf:ab -- --base REF`); in a
 * user's project it runs as the built package, where only the bin exists (`npx gtp ab --base
 * REF`). A message naming a command must name one that exists where it is shown, so every
 * message that names one asks here. Decided by this module's own file: `.ts` is the sources
 * (tsx, vitest), `.js` the built dist/ (the package).
 */
export const FROM_SOURCES: boolean = import.meta.url.endsWith('.ts');

/** The commands of the `gtp` bin, and their npm script in this repository (package.json). */
const SCRIPTS = {
  perf: 'perf',
  compare: 'perf:compare',
  baseline: 'perf:baseline',
  ab: 'perf:ab',
  bisect: 'perf:bisect',
  calibrate: 'perf:calibrate',
  history: 'perf:history',
  doctor: 'doctor',
  report: 'report',
} as const;

export type GtpCommand = keyof typeof SCRIPTS;

/**
 * The command line of `command` with `args` as a user types it here: `npm run perf:ab -- --base
 * <ref>` in this repository, `npx gtp ab --base <ref>` where the package is installed.
 * `sources` is for tests (default: where this module runs).
 */
export function commandLine(command: GtpCommand, args = '', sources: boolean = FROM_SOURCES): string {
  if (sources) return `npm run ${SCRIPTS[command]}${args ? ` -- ${args}` : ''}`;
  return `npx gtp ${command}${args ? ` ${args}` : ''}`;
}

/** The short name of a command in log prefixes and errors: `perf:ab` here, `gtp ab` in a user's project. */
export function commandName(command: GtpCommand, sources: boolean = FROM_SOURCES): string {
  return sources ? SCRIPTS[command] : `gtp ${command}`;
}

/**
 * How the tensorflow backend is set up where this message is shown: the npm script in this
 * repository; where the package is installed, the same script as the package ships it, run in the
 * project (it sets up the project it is run from: scripts/setup-tensorflow.sh).
 */
export function tensorflowSetup(sources: boolean = FROM_SOURCES): string {
  return sources ? '`npm run setup:tensorflow`' : '`bash node_modules/gpu-transfer-perf/scripts/setup-tensorflow.sh` (run in your project)';
}
