import { seededRng } from '../base/random.js';
import { bootstrapCI, geometricMean, mean, median } from '../measure/statistics.js';
import type { Diagnostics, Metric, RunError, RunRecord } from './schema.js';

/**
 * The value of a ratio or time across processes, one value each: their geometric mean with a 95%
 * bootstrap CI of it (seeded), from three processes on; the median without a CI where a time was
 * a true 0 ms (no logarithm). No in-process CI survives: it says nothing about the next process.
 */
function acrossProcesses(values: readonly number[]): { value: number; ci?: [number, number] } {
  if (!values.every((v) => v > 0)) return { value: median(values) };
  const ci = values.length >= 3 ? bootstrapCI(values.map(Math.log), mean, { rng: seededRng(31) }) : null;
  return { value: geometricMean(values), ...(ci ? { ci: [Math.exp(ci.lo), Math.exp(ci.hi)] as [number, number] } : {}) };
}

/**
 * One run record from K records of the same scenarios, each from its own process. Ratio and time
 * metrics keep one value per process (`processes`) and their geometric mean as the value, with a
 * 95% bootstrap CI of that mean across processes (the in-process pair samples are dropped: the
 * process is the unit now). Exact metrics must agree across processes; quality metrics keep the
 * worst value. Errors and diagnostics of every process are kept.
 */
export function combineProcessRecords(records: readonly RunRecord[]): RunRecord {
  const first = records[0];
  if (!first) throw new RangeError('combineProcessRecords needs at least one record');
  if (records.length === 1) return first;
  const errors: RunError[] = records.flatMap((r, k) => r.errors.map((e) => ({ ...e, test: `${e.test} (process ${k + 1})` })));
  const metrics: Metric[] = [];
  for (const m of first.metrics) {
    const all = records.map((r) => r.metrics.find((x) => x.id === m.id));
    if (all.some((x) => x === undefined)) {
      errors.push({ scenario: m.scenario, test: '(combining processes)', message: `metric ${m.id} is missing from some processes` });
      continue;
    }
    const values = (all as Metric[]).map((x) => x.value);
    if (m.kind === 'exact') {
      if (values.some((v) => v !== m.value))
        errors.push({ scenario: m.scenario, test: '(combining processes)', message: `exact metric ${m.id} differs between processes: ${values.join(', ')}` });
      metrics.push(m);
    } else if (m.kind === 'quality') {
      const worst = m.bound?.min !== undefined && m.bound.max === undefined ? Math.min(...values) : Math.max(...values);
      metrics.push({ ...m, value: worst, detail: `${m.detail ?? ''} [worst of ${records.length} processes]` });
    } else {
      const { samples: _dropped, ci: _inProcess, ...rest } = m;
      metrics.push({
        ...rest,
        ...acrossProcesses(values),
        processes: values,
        detail: `${m.detail ?? ''} [geometric mean over ${records.length} processes, one value each; 95% bootstrap CI across processes]`,
      });
    }
  }
  const diagnostics: Diagnostics[] = records.flatMap((r) => r.diagnostics ?? []);
  return { ...first, metrics, errors, diagnostics };
}

/**
 * The second look of a sequential design: `first`'s per-process metrics extended with the
 * processes of `more` (a run of some of its scenarios), value and CI recomputed over all.
 */
export function extendProcesses(first: RunRecord, more: RunRecord): RunRecord {
  const metrics = first.metrics.map((m) => {
    const extra = more.metrics.find((x) => x.id === m.id);
    if (!m.processes || !extra) return m;
    const values = [...m.processes, ...(extra.processes ?? [extra.value])];
    const { ci: _firstLook, ...rest } = m;
    return {
      ...rest,
      ...acrossProcesses(values),
      processes: values,
      detail: `${(m.detail ?? '').replace(/ \[geometric mean over \d+ processes.*\]$/, '')} [geometric mean over ${values.length} processes (two looks), one value each; 95% bootstrap CI across processes]`,
    };
  });
  return { ...first, metrics, errors: [...first.errors, ...more.errors], diagnostics: [...(first.diagnostics ?? []), ...(more.diagnostics ?? [])] };
}
