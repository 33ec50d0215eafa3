/**
 * The layering of src/ (docs/layout.md) as dependency-cruiser rules, checked by
 * src/layering.test.ts (`vitest run` fails on a violation; the test also proves that each kind of
 * rule fails on a wrong import). Data flows one way, so imports point one way: a layer may import
 * the layers below it (and itself), never one above it or beside it. No crossing is excepted: an
 * import the layering does not allow is moved (or the layering changed here, where review sees it).
 *
 * The API's `cruise` runs on Node 20; the depcruise command (Node >= 22) reads this file too:
 * `npx depcruise src perf questions`.
 */

/** Tests may reach up (a transfer test starts the suite's session) and into test/support/ (shared test constructors, which build records with suite/ and train/ metric builders): tests are not built (tsconfig.build.json) and nothing but tests imports them. */
const TESTS = '\\.test\\.ts$';

/**
 * The layers, bottom first; the layers of one level are peers and import neither each other.
 * [name, path (relative to the repository root), why it stands where it stands]
 */
const LEVELS = [
  [['base', '^src/base/', 'leaf helpers (the seeded Rng) that every layer may use: they import nothing of the harness']],
  [
    ['backend', '^src/backend/', 'the device and its byte counters: everything runs on a backend, so it knows nothing of what runs on it'],
    ['data', '^src/data/', 'data sets and loaders are where the flow starts: they know no device, no transfer, no run'],
  ],
  [['transfer', '^src/transfer/', 'the strategies send data to a backend (data -> transfer via backend), they know no model and no measurement']],
  [['models', '^src/models/', 'the networks consume what the transfer delivered (transfer -> models)']],
  [['measure', '^src/measure/', 'timers, stages and statistics measure transfers and models; they know no record and no report']],
  [['results', '^src/results/', 'the run record and its verdicts are built from measurements, and know no exporter, runner or command']],
  [['run-config', '^src/run-config\\.ts$', 'what one run is asked to do: read by train, suite, runner and cli, built from the data sources and backend names below']],
  [
    ['report', '^src/report/', 'exporters render results (results -> report); nothing below renders'],
    ['train', '^src/train/', 'the training loop feeds models, measures and records: it uses the layers below and shows nothing itself'],
  ],
  [
    ['suite', '^src/suite/', 'what perf files share: above measure/results/train, below the runner that starts the perf files'],
    ['doctor', '^src/doctor/', "doctor's checks use the backend, transfers and measurements; only its command calls them"],
    ['history', '^src/history/', 'the run history reads records and draws with the report layer; only its command calls it'],
  ],
  [['runner', '^src/runner/', 'the runner starts vitest on the perf files and collects the record: it uses the suite, never a command']],
  [
    [
      'cli',
      '^src/(cli/|vitest\\.ts$)',
      'commands only parse, call and set the exit code: they are the top, nothing below calls a command; the vitest preset (gpu-transfer-perf/vitest) is the command line of a plain `vitest run`, its RunConfig read from the PERF_* variables by cli/args.ts',
    ],
    [
      'api',
      '^src/(index\\.ts$|api/)',
      'the public API (gpu-transfer-perf, the union of the entries of src/api/: /measure, /transfer, /data, /record, /scenarios) re-exports the layers below for perf files; nothing in src/ imports it',
    ],
    [
      'browser-entry',
      '^src/browser\\.ts$',
      "the browser page's public API (gpu-transfer-perf/browser) re-exports the host-free core below for perf files run with --browser; nothing in src/ imports it",
    ],
    [
      'kernels-entry',
      '^src/kernels\\.ts$',
      'the production kernels (gpu-transfer-perf/kernels) re-export the device decode and normalize kernels of transfer/ for input pipelines; nothing in src/ imports it',
    ],
  ],
  [['kit', '^src/kit/', 'the portable run kit packs the commands: the one layer above cli']],
];

const layerRules = LEVELS.flatMap((level, index) => {
  const below = LEVELS.slice(0, index).flatMap((lower) => lower.map(([, path]) => path));
  return level.map(([name, path, why]) => ({
    name: `layer-${name}`,
    comment: `${name} imports only the layers below it: ${why}`,
    severity: 'error',
    from: { path, pathNot: TESTS },
    to: { path: '^src/', pathNot: [path, ...below] },
  }));
});

/**
 * What the browser page loads must be host-free at run time (issue 43): the rule below is checked
 * by src/layering.test.ts in a cruise of its own WITHOUT type-only imports (tsPreCompilationDeps
 * false), since a type import is erased and loads nothing in the page (a perf file's RunConfig type
 * reaches the data sources' readers, which the page never runs). A reachable rule cannot filter
 * dependency types, so it is not in `forbidden`, whose cruise counts type imports.
 * @type {import('dependency-cruiser').IForbiddenRuleType[]}
 */
export const HOST_FREE_RULES = [
  {
    name: 'browser-entry-host-free',
    comment:
      "gpu-transfer-perf/browser and doctor's page (src/doctor/browser/doctor.perf.ts, gtp doctor --browser) run in a browser page: everything they load, at any depth, is the harness's own code, tfjs, vitest's page API or a pure package (zod, pure-rand), never a Node built-in (node:fs, node:os, ...) or a Node-only package; the host's parts come through runner/browser.ts's provide and commands",
    severity: 'error',
    from: { path: '^src/(browser\\.ts$|doctor/browser/doctor\\.perf\\.ts$)' },
    to: { reachable: true, path: '^(?!src/)', pathNot: '^(node_modules/)?(@tensorflow/|vitest/dist/index\\.js$|vitest$|vitest/browser$|zod/|pure-rand/)' },
  },
];

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    ...layerRules,
    {
      name: 'no-circular',
      comment: 'a cycle has no bottom: neither side can be read, tested or moved without the other (type-only cycles too)',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'results-pure',
      comment:
        'results/ (records, baselines, verdicts) needs no device and no test runner: a verdict is judged the same on any machine, and commands that only judge load no tfjs; the profile is described in backend/',
      severity: 'error',
      from: { path: '^src/results/', pathNot: TESTS },
      to: { path: '^(node_modules/)?(@tensorflow/|vitest|vite/|@vitest/|webgpu)' },
    },
    {
      name: 'kernels-entry-light',
      comment:
        "gpu-transfer-perf/kernels goes into production input pipelines: everything it reaches, at any depth, is the harness's own code or tfjs and its backends, never a test runner, chart, image or data library (or any other package)",
      severity: 'error',
      from: { path: '^src/kernels\\.ts$' },
      to: { reachable: true, path: '^(?!src/)', pathNot: '^(node_modules/)?@tensorflow/' },
    },
    {
      name: 'phases-never-reach-back',
      comment:
        "a command's phases (src/cli/<command>/: plan, measure, judge, write) take plain values: none imports its command's module (src/cli/<command>.ts) or the flag parser (args.ts, commands.ts, main.ts), so each is read and tested on its own",
      severity: 'error',
      from: { path: '^src/cli/([^/]+)/', pathNot: TESTS },
      to: { path: '^src/cli/($1|args|commands|main)\\.ts$' },
    },
    {
      name: 'api-entries-apart',
      comment:
        'each public entry (src/api/<entry>.ts, gpu-transfer-perf/<entry>) re-exports the layers below it and never another entry or the root: an import of one entry loads what it lists, and a name lives in one entry',
      severity: 'error',
      from: { path: '^src/api/', pathNot: TESTS },
      to: { path: '^src/(index\\.ts$|api/)' },
    },
    {
      name: 'api-root-is-the-union',
      comment: 'the root gpu-transfer-perf (src/index.ts) re-exports the entries of src/api/ and nothing else: a name is added to its entry, so both promise it',
      severity: 'error',
      from: { path: '^src/index\\.ts$' },
      to: { path: '^src/', pathNot: '^src/api/' },
    },
    {
      name: 'test-support-for-tests-only',
      comment: 'test/support/ holds what tests share (records, a CLI runner): the harness itself never imports it, so nothing of it is built or shipped',
      severity: 'error',
      from: { path: '^(src|perf|questions)/', pathNot: TESTS },
      to: { path: '^test/' },
    },
    {
      name: 'perf-imports-the-package',
      comment: "perf files run in a user's project as they run here: they import 'gpu-transfer-perf' (and '/vitest'), never ../src",
      severity: 'error',
      from: { path: '^(perf|questions)/' },
      to: { path: '^src/', dependencyTypesNot: ['aliased-tsconfig-paths'] },
    },
    {
      name: 'perf-imports-the-public-entries',
      comment: 'by the package name a perf file reaches the public API and the preset only, what the package exports',
      severity: 'error',
      from: { path: '^(perf|questions)/' },
      to: { path: '^src/', pathNot: '^src/((index|vitest|browser)\.ts$|api/)' },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports count: `import type` across layers is a dependency of the design too.
    tsPreCompilationDeps: true,
    // Packages stay in the graph (results-pure checks them) but are not cruised.
    doNotFollow: { path: 'node_modules' },
  },
};
