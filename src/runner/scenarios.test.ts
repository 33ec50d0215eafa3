import { describe, expect, it } from 'vitest';
import { listScenarios, parseScenarioFile, scenarioOfPath, selectScenarios } from './scenarios.js';

describe('scenario files', () => {
  it('parses NN-name.spec.ts and NN-name.perf.ts, nothing else', () => {
    expect(parseScenarioFile('06-speedup.perf.ts')).toEqual({ number: '06', id: 'speedup', kind: 'perf', path: 'perf/06-speedup.perf.ts' });
    expect(parseScenarioFile('06-speedup.bench.ts')).toBeNull(); // vitest bench only
    expect(parseScenarioFile('helpers.ts')).toBeNull();
    expect(scenarioOfPath('/x/perf/02-cpu-normalize.spec.ts')).toBe('cpu-normalize');
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
