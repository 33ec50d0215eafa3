// `npm test` step: runs every perf/*.bench.ts under `vitest bench` (short samples) and fails
// when a bench file yields no benchmark with samples, or a bench threw: vitest itself skips a
// throwing bench silently and exits 0 (shared/facts/toolchain.md).
import { readdirSync } from 'node:fs';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startVitest } from 'vitest/node';
import { EXIT } from '../src/results/exit.js';

interface BenchJson {
  files: Array<{ filepath: string; groups: Array<{ benchmarks: Array<{ name: string; sampleCount: number }> }> }>;
}

const files = readdirSync('perf').filter((f) => f.endsWith('.bench.ts'));
const folder = mkdtempSync(join(tmpdir(), 'gtp-bench-'));
const out = join(folder, 'bench.json');
const vitest = await startVitest('benchmark', [], { run: true, watch: false, outputJson: out }, {});
await vitest.close();
const json = JSON.parse(readFileSync(out, 'utf8')) as BenchJson;
rmSync(folder, { recursive: true, force: true });
const problems: string[] = [];
for (const file of files) {
  const entry = json.files.find((f) => f.filepath.endsWith(`/perf/${file}`));
  const benches = entry?.groups.flatMap((g) => g.benchmarks) ?? [];
  if (benches.length === 0) problems.push(`${file}: no benchmark ran`);
  for (const b of benches) if (!(b.sampleCount > 0)) problems.push(`${file} > ${b.name}: no samples (did it throw?)`);
}
if (problems.length > 0) {
  console.error(`check-benches: ${problems.join('; ')}`);
  process.exitCode = EXIT.regression;
} else {
  console.log(`check-benches: ${files.length} bench files, every bench ran with samples.`);
}
