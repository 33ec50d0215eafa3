/**
 * `gpu-transfer-perf/record`: metrics into the run record. The metric builders (each kind judged
 * its own way against a baseline: docs/baselines.md), recording them and kernel tables from inside
 * a test, the leak check that closes a scenario. Also re-exported by `gpu-transfer-perf`.
 */

export type { Labels, MetricInput } from '../results/metrics.js';
export {
  /** Exact bytes (measured at an API boundary or computed): must equal the baseline. */
  bytesMetric,
  /** An exact count (bytes, tensors, shapes): must equal the baseline. */
  exactMetric,
  /** A figure that must lie within a bound (accuracy, max abs difference). */
  qualityMetric,
  /** A ratio from interleaved pairs: median time(a)/time(b) with its 95% bootstrap CI, samples kept. */
  ratioFromPairs,
  /** The host-state probe's median beside a ratio: its covariate, information, never judged. */
  hostProbeMetric,
  /** The id of that metric, for ratios sampled in the same rounds to name in labels.covariate. */
  hostProbeId,
  /** A median time in ms over n samples (informational; compared only within a profile). */
  timeMetric,
} from '../results/metrics.js';
export {
  /** Section 6's claim's metric id, 'mnist-transfer.speedup' (read by the report and calibration). */
  MNIST_SPEEDUP_ID,
} from '../results/metric-ids.js';
export {
  /** Adds a profiled step's top-N kernel table to the run record. */
  recordKernelTable,
  /** Adds metrics to the run record from inside a test; the scenario is the perf file's name. */
  recordMetrics,
  /** The last test of a scenario: no tensor it created is still alive (records memory.leaked-tensors.<scenario>). */
  itLeavesNoTensors,
} from '../suite/record.js';
export {
  /** A console progress bar for long scenarios. */
  Progress,
} from '../measure/progress.js';
