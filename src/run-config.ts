import { z } from 'zod';
import { BACKEND_CHOICES, BACKEND_NAMES, type BackendChoice, type BackendName } from './backend/types.js';

export const SCALES = ['quick', 'full'] as const;
export type Scale = (typeof SCALES)[number];

/** What one run is asked to do; the CLI writes it into the environment of the test process. */
export interface RunConfig {
  readonly backend: BackendChoice;
  /** Fail instead of falling back when this backend does not start (CI proves webgpu ran). */
  readonly requireBackend: BackendName | null;
  readonly scale: Scale;
  /** Real MNIST idx files (torchvision's data/MNIST/raw); null: the `mnist` package. */
  readonly mnistDir: string | null;
}

const envSchema = z.object({
  PERF_BACKEND: z.enum(BACKEND_CHOICES).default('auto'),
  PERF_REQUIRE_BACKEND: z.enum(BACKEND_NAMES).optional(),
  PERF_SCALE: z.enum(SCALES).default('quick'),
  PERF_MNIST_DIR: z.string().min(1).optional(),
});

/** Reads the run configuration from environment variables, with a clear error on bad values. */
export function runConfigFromEnv(env: NodeJS.ProcessEnv = process.env): RunConfig {
  const parsed = envSchema.safeParse({
    PERF_BACKEND: env.PERF_BACKEND || undefined,
    PERF_REQUIRE_BACKEND: env.PERF_REQUIRE_BACKEND || undefined,
    PERF_SCALE: env.PERF_SCALE || undefined,
    PERF_MNIST_DIR: env.PERF_MNIST_DIR || undefined,
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`bad environment for gpu-transfer-perf: ${problems}`);
  }
  const e = parsed.data;
  return { backend: e.PERF_BACKEND, requireBackend: e.PERF_REQUIRE_BACKEND ?? null, scale: e.PERF_SCALE, mnistDir: e.PERF_MNIST_DIR ?? null };
}

/** The environment variables that carry a RunConfig to the test process. */
export function runConfigToEnv(config: RunConfig): Record<string, string> {
  const env: Record<string, string> = { PERF_BACKEND: config.backend, PERF_SCALE: config.scale };
  if (config.requireBackend) env.PERF_REQUIRE_BACKEND = config.requireBackend;
  if (config.mnistDir) env.PERF_MNIST_DIR = config.mnistDir;
  return env;
}
