/**
 * How far apart two float32 computations of the same real value may lie, derived from the
 * operations they do: the rounding of each operation (unit roundoff u), how many of them lie on
 * one value's path, and the magnitude of what is summed. A check that two paths give "the same
 * values" compares within such a bound, so it holds on any conforming device (lavapipe happens to
 * round like the host; a real GPU divides to 2.5 ulp and sums in another order), while a real
 * defect (a normalization one step of 1/255 off, a swapped channel) lies orders of magnitude
 * beyond it. Source: N. J. Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed.
 * (SIAM, 2002), §2.2 (the model fl(x op y) = (x op y)(1 + d), |d| <= u) and §3.1 (Lemma 3.1,
 * gamma_n; eq. 3.5, the inner product bound).
 */

/** float32's unit roundoff u = 2^-24 (Higham §2.1: u = 1/2 beta^(1-t), beta 2, t 24 significand bits). */
export const FLOAT32_UNIT_ROUNDOFF = 2 ** -24;

/**
 * Roundings an operation counts for, in units of u. WGSL's +, -, * are correctly rounded (1);
 * its f32 division is accurate to 2.5 ulp (W3C WGSL spec, "Floating Point Accuracy"), and one
 * ulp of a normal float32 is at most 2u relative, so a division counts as 5; a float64 constant
 * (mean, std, 1/std) rounded once to float32 counts as 1; a uint8 pixel converts exactly (0).
 */
export const ROUNDINGS = { correctlyRounded: 1, wgslDivision: 5, constant: 1 } as const;

/**
 * The most roundings on one term's path in any normalization (x - mean) / std here, each as u:
 * mean rounded to float32 (1), the subtraction (1), std rounded (1) and WGSL's division (5);
 * a kernel that multiplies by a rounded 1/std has fewer (3), the host's float64 table 1.
 */
export const NORMALIZE_ROUNDINGS = ROUNDINGS.constant + ROUNDINGS.correctlyRounded + ROUNDINGS.constant + ROUNDINGS.wgslDivision;

/** The host's normalization (normalizeOnHost, cpu-normalize's table): float64, rounded once to float32. */
export const HOST_ROUNDINGS = 1;

/**
 * gamma_n = n u / (1 - n u): a product of n factors (1 + d_i)^(+-1), |d_i| <= u, is 1 + theta_n
 * with |theta_n| <= gamma_n (Higham §3.1, Lemma 3.1). Throws where n u >= 1 (no bound).
 */
export function gamma(n: number, u: number = FLOAT32_UNIT_ROUNDOFF): number {
  if (!Number.isFinite(n) || n < 0) throw new RangeError(`gamma(n): n must be a count >= 0, got ${n}`);
  if (n * u >= 1) throw new RangeError(`gamma(${n}): n u = ${n * u} >= 1, so rounding error analysis gives no bound`);
  return (n * u) / (1 - n * u);
}

/**
 * Largest |computed - exact| of a sum of terms, each reaching the result through at most
 * `roundings` roundings, in any order: gamma_roundings * sum |term| (Higham eq. 3.5, the inner
 * product bound, where an inner product of n terms has at most n roundings on each term's path).
 */
export function sumBound(sumOfMagnitudes: number, roundings: number): number {
  return gamma(roundings) * Math.abs(sumOfMagnitudes);
}

/** A normalization (x - mean) / std of raw 0..255 pixels, one mean and std, or one per channel. */
export interface NormalizationConstants {
  readonly mean: number | readonly number[];
  readonly std: number | readonly number[];
}

/**
 * Largest |x|/std + |mean|/std over 8-bit pixels x in 0..255 and the channels: the magnitude the
 * rounding of (x - mean) / std is relative to (its two terms x/std and -mean/std, eq. 3.5).
 */
export function normalizeMagnitude(n: NormalizationConstants): number {
  const means = typeof n.mean === 'number' ? [n.mean] : n.mean;
  const stds = typeof n.std === 'number' ? [n.std] : n.std;
  if (means.length !== stds.length && means.length !== 1 && stds.length !== 1) {
    throw new RangeError(`normalizeMagnitude: ${means.length} means and ${stds.length} stds`);
  }
  const channels = Math.max(means.length, stds.length);
  let most = 0;
  for (let c = 0; c < channels; c++) {
    const mean = means[Math.min(c, means.length - 1)]!;
    const std = stds[Math.min(c, stds.length - 1)]!;
    most = Math.max(most, (255 + Math.abs(mean)) / Math.abs(std));
  }
  return most;
}

/**
 * Largest difference between two float32 normalizations of the same pixels, the paths doing
 * at most `roundingsA` and `roundingsB` roundings per term (default NORMALIZE_ROUNDINGS each):
 * each lies within gamma * magnitude of the exact value (sumBound), so the two within the sum
 * of both (triangle inequality). The ARTICLE normalization (127.5, 127.5): 2 * gamma_8 * 3 = 2.9e-6.
 */
export function normalizeAgreementBound(n: NormalizationConstants, roundingsA = NORMALIZE_ROUNDINGS, roundingsB = NORMALIZE_ROUNDINGS): number {
  const magnitude = normalizeMagnitude(n);
  return sumBound(magnitude, roundingsA) + sumBound(magnitude, roundingsB);
}

/**
 * Roundings on the longest path of the two-conv network's loss (models/two-conv-cnn.ts) for a
 * batch of `batch`: conv1 a 3x3x1 inner product + bias (10), conv2 3x3x32 + bias (289), the
 * dense layer 1,600 + bias (1,601) (ReLU and max pooling are exact), then the softmax
 * cross-entropy: max subtraction (1), exp (WGSL: 3 + 2|x| ulp, counted 20 for |x| <= 3), the sum
 * of 10 classes (10), log (3 ulp: 6), a subtraction (1), and the mean over the batch (batch
 * terms + a division: batch + 5). Each inner product of n terms has at most n roundings on a
 * term's path (Higham §3.1, eq. 3.5).
 */
export function twoConvLossRoundings(batch: number): number {
  const layers = 10 + 289 + 1601;
  const softmaxCrossEntropy = 1 + 20 + 10 + 6 + 1;
  return layers + softmaxCrossEntropy + batch + ROUNDINGS.wgslDivision;
}

/**
 * Largest relative difference between two float32 evaluations of one loss from equal weights and
 * inputs that agree to float32 rounding: each within gamma_roundings of the exact loss relative to
 * the magnitudes summed on its path, so the two within twice that (first order; exact where no
 * sum cancels, which a cross-entropy of positive terms does not). For the two-conv network at
 * batch 64: 2 gamma_2007 = 2.4e-4.
 */
export function lossAgreementBound(roundings: number): number {
  return 2 * gamma(roundings);
}

/** Adam's settings the drift bound needs (tfjs's defaults: beta1 0.9, beta2 0.999). */
export interface AdamSettings {
  readonly learningRate: number;
  readonly beta1?: number;
  readonly beta2?: number;
}

/**
 * Largest |weight difference| of two Adam trainings from equal weights on equal batches after
 * `steps` steps, where each step's gradients agree to a relative `gradientError`. Adam moves a
 * weight by lr * mhat / (sqrt(vhat) + eps), at most lr (1 - beta1) / sqrt(1 - beta2) per step
 * (Kingma & Ba 2015, "Adam", §2.1); a relative error e in the gradients moves mhat by e and
 * sqrt(vhat) by e, so the step by at most 2e of that most (first order); the steps' errors add.
 */
export function adamDriftBound(steps: number, gradientError: number, adam: AdamSettings): number {
  const beta1 = adam.beta1 ?? 0.9;
  const beta2 = adam.beta2 ?? 0.999;
  const largestStep = adam.learningRate * Math.max(1, (1 - beta1) / Math.sqrt(1 - beta2));
  return steps * 2 * gradientError * largestStep;
}

/**
 * Roundings on the longest path of one gradient of the two-conv network for a batch of `batch`:
 * a conv1 filter weight's gradient sums over the batch and conv1's 26x26 outputs (batch * 676
 * terms), each term carrying the backward pass through the dense layer (1,600) and conv2
 * (3x3x64 = 576), and the loss's own path (twoConvLossRoundings).
 */
export function twoConvGradientRoundings(batch: number): number {
  return batch * 26 * 26 + 1600 + 576 + twoConvLossRoundings(batch);
}

/**
 * Relative error of a sum of n roundings with probability >= 1 - 2 exp(-lambda^2 (1 - u)^2 / 2)
 * when the rounding errors are independent with mean zero: lambda sqrt(n) u, to first order
 * (Higham & Mary, "A New Approach to Probabilistic Rounding Error Analysis", SIAM J. Sci.
 * Comput. 41(5), 2019, Theorem 2.4: gamma~_n(lambda) = exp(lambda sqrt(n) u + n u^2 / (1 - u)) - 1).
 * Where gamma_n is hopeless (n u near 1: a gradient summed over 45,000 terms), this is the bound
 * that still says something; lambda 13 fails with probability 2 exp(-84.5) ~ 4e-37.
 */
export function probabilisticGamma(n: number, lambda = 13, u: number = FLOAT32_UNIT_ROUNDOFF): number {
  return Math.expm1(lambda * Math.sqrt(n) * u + (n * u * u) / (1 - u));
}
