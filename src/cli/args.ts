import { parseArgs } from 'node:util';
import { BACKEND_CHOICES, BACKEND_NAMES, type BackendChoice, type BackendName } from '../backend/types.js';
import { SCALES, type Scale } from '../run-config.js';

/** A command line the user must fix: printed with the usage, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const COMMANDS = ['perf', 'doctor'] as const;
export type Command = (typeof COMMANDS)[number];

export interface PerfArgs {
  readonly command: Command;
  readonly help: boolean;
  readonly backend: BackendChoice;
  readonly requireBackend: BackendName | null;
  readonly scale: Scale;
  readonly out: string | null;
  readonly scenarios: readonly string[];
  readonly mnistDir: string | null;
}

export const USAGE = `Usage:
  npm run perf -- [options]      run the scenarios, print the tables, write a run record
  npm run doctor -- [--backend]  check that this machine's backend and device are set up right

Options:
  --backend auto|webgpu|wasm|cpu|tensorflow
                        backend to run on (default: $PERF_BACKEND, else auto: webgpu when a
                        WebGPU adapter exists, else tensorflow when installed, else wasm)
  --scale quick|full    quick: CI-sized samples (default); full: the article's sizes
  --out FILE            where to write the run record (default: results/<time>-<profile>.json)
  --scenario ID         run only this scenario; repeatable. An id (speedup), a section
                        number (6) or a file name (06-speedup.bench.ts)
  --mnist-dir DIR       real MNIST idx files (torchvision's data/MNIST/raw, plain or .gz)
                        instead of the mnist package
  -h, --help            this text

Environment: PERF_BACKEND (as --backend), PERF_REQUIRE_BACKEND=<name> (fail unless that
backend runs; CI sets webgpu).

Exit codes: 0 all scenarios passed; 1 a scenario failed (see ERRORS); 2 bad usage or input.`;

function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag} must be one of ${allowed.join('|')}, got '${value}'`);
}

/** Parses and validates the command line; throws UsageError on anything it does not know. */
export function parsePerfArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): PerfArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        backend: { type: 'string' },
        scale: { type: 'string' },
        out: { type: 'string' },
        scenario: { type: 'string', multiple: true },
        'mnist-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1) throw new UsageError(`unexpected arguments: ${positionals.slice(1).join(' ')}`);
  const command = oneOf('command', positionals[0], COMMANDS, 'perf');
  for (const flag of ['out', 'mnist-dir'] as const) {
    if (values[flag] === '') throw new UsageError(`--${flag} needs a value`);
  }
  return {
    command,
    help: values.help ?? false,
    backend: oneOf('--backend', values.backend ?? (env.PERF_BACKEND || undefined), BACKEND_CHOICES, 'auto'),
    requireBackend: env.PERF_REQUIRE_BACKEND ? oneOf('PERF_REQUIRE_BACKEND', env.PERF_REQUIRE_BACKEND, BACKEND_NAMES, 'webgpu') : null,
    scale: oneOf('--scale', values.scale, SCALES, 'quick'),
    out: values.out ?? null,
    scenarios: values.scenario ?? [],
    mnistDir: values['mnist-dir'] ?? null,
  };
}
