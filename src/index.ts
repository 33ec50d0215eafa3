/**
 * `gpu-transfer-perf`: the public API for perf files, the harness's own (perf/) and a user's.
 * Everything exported here is covered by semver together with the run-record schema; anything
 * else under src/ is internal and may change in any release. The `gpu-transfer-perf/vitest`
 * entry (src/vitest.ts) holds the vitest preset.
 *
 * The root is the union of the entries below, one per thing a user imports it for; each is an
 * entry of its own (`gpu-transfer-perf/measure`, ...) with its own .d.ts, and lists its exports
 * with a line each. src/index.test.ts holds the root to every name it exported before the split.
 */

/** The session (what one run provides) and the measuring tools. */
export * from './api/measure.js';
/** Transfer strategies: raw pixels to a normalized float32 tensor on the device. */
export * from './api/transfer.js';
/** Data sources, loaders, image folders and shapes. */
export * from './api/data.js';
/** Metrics into the run record. */
export * from './api/record.js';
/** The building blocks of the built-in article scenarios and of the flag questions. */
export * from './api/scenarios.js';
