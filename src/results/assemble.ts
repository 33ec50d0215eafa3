import { tensorflowSetup } from '../base/commands.js';
import type { MetricInput } from './metrics.js';
import { adapterName } from '../backend/fingerprint.js';
import { directionOf } from './direction.js';
import {
  metricProblems,
  runRecordSchema,
  SCHEMA_VERSION,
  type Diagnostics,
  type KernelTableRecord,
  type Metric,
  type RunError,
  type RunProfile,
  type RunRecord,
  type SkippedScenario,
} from './schema.js';

/** What one test hands to the run record (through vitest's task.meta). */
export interface RecordedByTest {
  metrics: MetricInput[];
  kernelTables: Record<string, KernelTableRecord>;
}

/** What the reporter saw of one test. */
export interface CollectedTest {
  /** Scenario id of the test's file (its failures are filed under it). */
  readonly scenario: string;
  readonly name: string;
  readonly state: 'passed' | 'failed' | 'skipped' | 'pending';
  readonly errors: readonly string[];
  /** Why a skipped test was skipped, where it said (`ctx.skip(note)`: the page could not measure it here). */
  readonly note?: string | undefined;
  readonly perf?: RecordedByTest;
}

/**
 * Scenarios whose every test was skipped, one at least saying why (`ctx.skip(note)`): measured
 * nothing here, for that reason (a video the browser cannot decode), as a missing tool skips one.
 */
export function scenariosSkippedByTests(tests: readonly CollectedTest[]): SkippedScenario[] {
  const byScenario = new Map<string, CollectedTest[]>();
  for (const t of tests) byScenario.set(t.scenario, [...(byScenario.get(t.scenario) ?? []), t]);
  const skipped: SkippedScenario[] = [];
  for (const [scenario, own] of byScenario) {
    const note = own.find((t) => t.note)?.note;
    if (note && own.every((t) => t.state === 'skipped')) skipped.push({ scenario, reason: note });
  }
  return skipped;
}

export interface RunContext {
  readonly createdAt: string;
  readonly scale: RunRecord['scale'];
  readonly selection: readonly string[] | null;
  readonly datasets: RunRecord['datasets'];
  readonly git: RunRecord['git'];
  /** The hardware profile measured at backend start; null when no test reached a backend. */
  readonly profile: RunProfile | null;
  /** Noise diagnostics of the measuring process. */
  readonly diagnostics?: Diagnostics;
  /** Errors vitest raised outside any test (e.g. a file that failed to load). */
  readonly unhandledErrors: readonly string[];
}

/** Caveats a reader must see next to the figures of this profile. */
function profileNotes(profile: RunProfile): string[] {
  const notes: string[] = [];
  if (profile.adapter?.isSoftware) {
    // A browser's WebGL runs on the adapter too (SwiftShader through ANGLE); Chromium's WebGPU gives it no description.
    const api = profile.backend === 'webgl' ? 'WebGL' : 'WebGPU';
    const named = adapterName(profile.adapter);
    notes.push(`The ${api} adapter is a software rasterizer (${named}): a real device that renders on the CPU. Its timings describe it, not a GPU.`);
  }
  if (profile.backend !== 'webgpu') notes.push(`webgpu was NOT exercised: ${profile.backendReason}.`);
  if (profile.backend === 'tensorflow') {
    const tf = profile.versions.tensorflow ? ` ${profile.versions.tensorflow}` : '';
    if (profile.isUsingGpuDevice) {
      notes.push(
        `TensorFlow${tf} ran on a CUDA GPU (tfjs-node-gpu): a route this project has never built or run itself; treat these figures as unverified by it.`,
      );
    } else {
      notes.push(
        `TensorFlow${tf} ran on the CPU device (isUsingGpuDevice false): ` +
          '"host->device" is host memory to host memory through the binding, not PCIe, and a speedup here is not a GPU\'s.',
      );
    }
  } else {
    notes.push(
      `The tensorflow backend (TensorFlow's C library through tfjs-node) was not exercised in this run: \`--backend tensorflow\` after ${tensorflowSetup()}.`,
    );
  }
  return notes;
}

/**
 * Builds a run record from the tests of one vitest run; null when no test reached a backend
 * (then there is no profile to file the figures under). A metric id recorded twice is an error.
 */
export function assembleRunRecord(tests: readonly CollectedTest[], run: RunContext): RunRecord | null {
  const profile = run.profile;
  if (!profile) return null;
  const errors: RunError[] = [];
  const metrics: Metric[] = [];
  const seen = new Set<string>();
  const kernelTables: NonNullable<RunRecord['kernelTables']> = {};
  for (const t of tests) {
    const scenario = t.scenario;
    if (t.state === 'failed') errors.push({ scenario, test: t.name, message: t.errors.join('\n') || 'failed' });
    for (const m of t.perf?.metrics ?? []) {
      if (seen.has(m.id)) {
        errors.push({ scenario, test: t.name, message: `metric ${m.id} recorded twice; kept the first` });
        continue;
      }
      seen.add(m.id);
      // An impossible value (negative bytes, a ratio of 0) fails its test, not the whole record.
      const problems = metricProblems({ ...m, scenario });
      if (problems.length > 0) {
        errors.push({ scenario, test: t.name, message: `${problems.map((p) => p.message).join('; ')}; not recorded` });
        continue;
      }
      // Every recorded metric carries its direction: a metric built by hand gets its kind's.
      metrics.push({ ...m, scenario, direction: directionOf(m) });
    }
    Object.assign(kernelTables, t.perf?.kernelTables);
  }
  for (const message of run.unhandledErrors) errors.push({ scenario: '(run)', test: '(outside any test)', message });
  const record: RunRecord = {
    schemaVersion: SCHEMA_VERSION,
    createdAt: run.createdAt,
    scale: run.scale,
    selection: run.selection === null ? null : [...run.selection],
    datasets: { ...run.datasets },
    git: run.git,
    profile,
    metrics,
    kernelTables,
    notes: profileNotes(profile),
    ...(run.diagnostics ? { diagnostics: [run.diagnostics] } : {}),
    errors,
  };
  const skipped = scenariosSkippedByTests(tests);
  if (skipped.length > 0) record.skipped = skipped;
  // What we write must be what readers accept.
  return runRecordSchema.parse(record);
}
