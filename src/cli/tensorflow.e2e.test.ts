// `gtp perf --backend tensorflow` from the real CLI (issue 50): tfjs-node on TensorFlow's C library
// as `npm run setup:tensorflow` leaves it, the article's MNIST batch both ways, its bytes counted at
// the binding and exact. Never a time: the speedups go to the record, judged by the gates only.
// Where tensorflow is not set up this skips, saying so; with GTP_REQUIRE_TENSORFLOW=1 (CI) it fails.
import { mkdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { cli, withEnv } from '../../test/support/cli.js';
import { tempFolder } from '../../test/support/temp-folder.js';
import { isTensorflowInstalled } from '../backend/tensorflow-installed.js';
import { runRecordSchema } from '../results/schema.js';

const temp = tempFolder('gtp-tensorflow-e2e-');

describe('perf on the tensorflow backend', () => {
  it('runs the MNIST transfer both ways on TensorFlow 2.21 through tfjs-node: 200,704 B float32 against 50,176 B uint8 per batch, no leaks', async (ctx) => {
    if (!isTensorflowInstalled()) {
      if (process.env.GTP_REQUIRE_TENSORFLOW === '1') throw new Error('GTP_REQUIRE_TENSORFLOW=1: tfjs-node is not set up here (npm run setup:tensorflow)');
      ctx.skip('tfjs-node is not set up here: npm run setup:tensorflow');
    }
    const out = temp.at('tensorflow.json');
    // No baselines folder: bytes are checked here; nothing is judged.
    const noBaselines = temp.at('no-baselines');
    await mkdir(noBaselines, { recursive: true });
    const scenarios = ['cpu-normalize', 'device-normalize', 'memory'].flatMap((id) => ['--scenario', id]);
    const run = await cli(['perf', '--backend', 'tensorflow', ...scenarios, '--baselines', noBaselines, '--out', out], undefined, {
      // CI requires a baseline for its own runs; this one checks bytes against none.
      env: withEnv({ PERF_REQUIRE_BASELINE: '' }),
      timeoutMs: 240_000,
    });
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const record = runRecordSchema.parse(JSON.parse(await readFile(out, 'utf8')));
    expect(record.errors).toEqual([]);
    expect(record.profile?.backend).toBe('tensorflow');
    expect(record.profile?.versions.tensorflow).toMatch(/^2\.\d+\.\d+$/);
    const value = (id: string) => record.metrics.find((m) => m.id === id)?.value;
    expect(value('mnist-transfer.upload-bytes.cpu-normalize')).toBe(200_704);
    expect(value('mnist-transfer.upload-bytes.device-normalize')).toBe(50_176);
    expect(value('memory.leaked-tensors.memory')).toBe(0);
  }, 300_000);
});
