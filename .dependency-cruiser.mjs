/**
 * The layering of src/ (docs/layout.md) as dependency-cruiser rules, checked by
 * src/layering.test.ts (`vitest run` fails on a violation; the test also proves that each kind of
 * rule fails on a wrong import). Data flows one way, so imports point one way: a layer may import
 * the layers below it (and itself), never one above it or beside it.
 *
 * The API's `cruise` runs on Node 20; the depcruise command (Node >= 22) reads this file too:
 * `npx depcruise src perf questions`.
 */

/** Tests and fixtures may reach up (a transfer test starts the suite's session; a report fixture builds a record with suite/ and train/ metric builders): they are not built (tsconfig.build.json) and nothing but tests imports them. */
const TESTS = '\\.(test|fixture)\\.ts$';

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
  [
    [
      'runner',
      '^src/(runner/|vitest\\.ts$)',
      'the runner and the vitest preset (gpu-transfer-perf/vitest) start vitest on the perf files and collect the record: they use the suite, never a command',
    ],
  ],
  [
    ['cli', '^src/cli/', 'commands only parse, call and set the exit code: they are the top, nothing below calls a command'],
    ['api', '^src/index\\.ts$', 'the public API (gpu-transfer-perf) re-exports the layers below for perf files; nothing in src/ imports it'],
  ],
  [['kit', '^src/kit/', 'the portable run kit packs the commands: the one layer above cli']],
];

/**
 * The crossings the layering still allows, each with its reason: a new one needs its own line
 * here, where review sees it. `rule` is the rule it is an exception to.
 */
const EXCEPTIONS = [
  {
    rule: 'layer-runner',
    from: '^src/vitest\\.ts$',
    to: '^src/cli/args\\.ts$',
    why: 'cli/args.ts is the one reader of the PERF_* variables (layout.md): the preset reads the RunConfig in the test process with it',
  },
  {
    rule: 'no-circular',
    from: '^src/cli/(args|history)\\.ts$',
    to: '^src/cli/(args|history)\\.ts$',
    why: 'args.ts takes the HistoryArgs type from history.ts, which throws UsageError of args.ts; until HistoryArgs moves into args.ts',
  },
  {
    rule: 'no-circular',
    from: '^src/report/(exporters?|html|json|markdown)\\.ts$',
    to: '^src/report/(exporters?|html|json|markdown)\\.ts$',
    why: 'the exporters take the Exporter type from exporter.ts, which reads their list in exporters.ts; until that type has a module of its own',
  },
];

/** A rule, and beside it one rule per exception to it: the exception's files may also import the exception's targets. */
function withExceptions(rule) {
  const own = EXCEPTIONS.filter((e) => e.rule === rule.name);
  const not = (restriction, paths) => ({ ...restriction, pathNot: [restriction.pathNot ?? [], paths].flat() });
  return [
    { ...rule, from: not(rule.from, own.map((e) => e.from)) },
    ...own.map((e) => ({
      ...rule,
      name: `${rule.name}-exception`,
      comment: `${rule.comment} (the one crossing of ${e.from}: ${e.why})`,
      from: { ...rule.from, path: e.from },
      to: not(rule.to, [e.to]),
    })),
  ];
}

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

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    ...[
      ...layerRules,
      {
        name: 'no-circular',
        comment: 'a cycle has no bottom: neither side can be read, tested or moved without the other (type-only cycles too)',
        severity: 'error',
        from: {},
        to: { circular: true },
      },
    ].flatMap(withExceptions),
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
      to: { path: '^src/', pathNot: '^src/(index|vitest)\\.ts$' },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports count: `import type` across layers is a dependency of the design too.
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
  },
};
