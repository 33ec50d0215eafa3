import { mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * `npm run test:perf`'s end-to-end tests (src/**\/*.e2e.test.ts): the harness's config plus a
 * global setup that builds the CLI once, so the tests spawn built JavaScript (test/support/cli.ts).
 */
export default mergeConfig(base, { test: { globalSetup: ['./test/support/built-cli.setup.ts'] } });
