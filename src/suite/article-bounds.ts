import { HOST_ROUNDINGS, NORMALIZE_ROUNDINGS, normalizeAgreementBound } from '../measure/float-bounds.js';
import { ARTICLE_NORMALIZATION } from '../transfer/normalization.js';

/**
 * How far a device normalization of the article, (x - 127.5) / 127.5, may lie from the host's:
 * at most 8 roundings per term on the device (WGSL's 2.5-ulp division included), 1 on the host,
 * so (gamma_8 + gamma_1) * 3 = 1.6e-6 (Higham, "Accuracy and Stability of Numerical
 * Algorithms", 2nd ed., §3.1; measure/float-bounds.ts). One step of 1/255 off is 7.8e-3.
 */
export const ARTICLE_DEVICE_VS_HOST_BOUND = normalizeAgreementBound(ARTICLE_NORMALIZATION, NORMALIZE_ROUNDINGS, HOST_ROUNDINGS);
