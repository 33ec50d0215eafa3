import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listScenarios, parseScenarioFile, scenarioOfPath, selectScenarios } from './scenarios.js';

describe('scenario files', () => {
  it('parses NN-name.spec.ts and NN-name.perf.ts, nothing else', () => {
    expect(parseScenarioFile('06-speedup.perf.ts')).toEqual({ number: '06', id: 'speedup', kind: 'perf', path: 'perf/06-speedup.perf.ts' });
    expect(parseScenarioFile('06-speedup.bench.ts')).toBeNull(); // vitest bench only
    expect(parseScenarioFile('helpers.ts')).toBeNull();
    expect(scenarioOfPath('/x/perf/02-cpu-normalize.spec.ts')).toBe('cpu-normalize');
  });

  it("parses a user's file names: no number needed, the prefix is never part of the id", () => {
    expect(parseScenarioFile('my-pipeline.perf.ts', 'bench')).toEqual({ number: null, id: 'my-pipeline', kind: 'perf', path: 'bench/my-pipeline.perf.ts' });
    expect(parseScenarioFile('resize-v2.spec.ts')?.id).toBe('resize-v2');
    expect(parseScenarioFile('Resize_v2.spec.ts')).toBeNull(); // not a metric-id part
    expect(parseScenarioFile('2024-report.perf.ts')).toMatchObject({ number: null, id: '2024-report' });
    expect(parseScenarioFile('-x.perf.ts')).toBeNull();
    expect(parseScenarioFile('pipeline.test.ts')).toBeNull();
    expect(scenarioOfPath('/x/perf/my-pipeline.perf.ts')).toBe('my-pipeline');
    const user = [parseScenarioFile('a.perf.ts')!, parseScenarioFile('01-b.spec.ts')!];
    expect(selectScenarios(user, ['a']).map((s) => s.path)).toEqual(['perf/a.perf.ts']);
    expect(() => selectScenarios(user, ['c'])).toThrow(/unknown scenario 'c'.*a, b \(01\)/);
  });

  it('refuses a perf folder with a scenario file named against the rule, naming it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gtp-scenarios-'));
    try {
      await writeFile(join(dir, 'ok.perf.ts'), '');
      await writeFile(join(dir, 'helpers.ts'), '');
      expect(listScenarios(dir, '.').map((s) => s.id)).toEqual(['ok']);
      await writeFile(join(dir, 'MyPipeline.perf.ts'), '');
      expect(() => listScenarios(dir, '.')).toThrow(/MyPipeline\.perf\.ts: a scenario file is named/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('selects by id, number or file name and rejects unknown ones', () => {
    const all = listScenarios();
    expect(all.length).toBeGreaterThanOrEqual(7);
    expect(selectScenarios(all, ['speedup']).map((s) => s.number)).toEqual(['06']);
    expect(selectScenarios(all, ['9', '01']).map((s) => s.id)).toEqual(['mnist-loader', 'memory']);
    expect(selectScenarios(all, []).length).toBe(all.length);
    expect(() => selectScenarios(all, ['nope'])).toThrow(/unknown scenario 'nope'. Known: mnist-loader \(01\)/);
  });

  it('names each known scenario once, though coco has a spec and a perf file (issue 21 #16)', () => {
    const all = listScenarios();
    expect(all.filter((s) => s.id === 'coco')).toHaveLength(2);
    let known: string[] = [];
    try {
      selectScenarios(all, ['nope']);
    } catch (error) {
      known = (error as Error).message.replace(/^.*Known: /, '').split(', ');
    }
    expect(known).toContain('coco (07)');
    expect(known).toHaveLength(new Set(known).size);
  });
});
