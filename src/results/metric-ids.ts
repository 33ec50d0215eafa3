/**
 * Metric ids that more than the scenario that records them read (the report's headline and
 * summary, calibration): one spelling each, as run records and baselines name them.
 */

/** Section 6's claim: time(cpu-normalize)/time(device-normalize) of MNIST batches. */
export const MNIST_SPEEDUP_ID = 'mnist-transfer.speedup';
