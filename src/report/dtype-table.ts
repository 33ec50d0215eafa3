import Table from 'cli-table3';
import type { Metric, RunRecord } from '../results/schema.js';
import { formatValue, significant } from './format.js';

// perf/11-dtypes.perf.ts labels its figures { table: 'dtypes', batch, quantity, dtype }.
const QUANTITIES = ['upload-bytes', 'time', 'speedup-vs-float32', 'host-encode-time'] as const;
const TYPE_ORDER = ['uint8', 'int8', 'float16', 'float32'];
const HALF_PRECISION = ['float16-payload', 'shader-f16', 'mixed-precision'];

interface Row {
  bytes?: Metric;
  time?: Metric;
  speedup?: Metric;
  encode?: Metric;
}

/** 'faster' / 'SLOWER' / 'no clear difference' from a ratio's CI, as far as the CI allows. */
function verdict(speedup: Metric): string {
  if (!speedup.ci) return '';
  if (speedup.ci[0] > 1) return 'faster';
  if (speedup.ci[1] < 1) return 'SLOWER';
  return 'no clear difference';
}

/** Groups dtypes metrics by batch, then by wire type. */
function rowsByBatch(metrics: readonly Metric[]): Map<string, Map<string, Row>> {
  const batches = new Map<string, Map<string, Row>>();
  for (const m of metrics) {
    const { table, batch, quantity: what, dtype: type } = m.labels ?? {};
    if (table !== 'dtypes' || !batch || !type || !QUANTITIES.includes(what as (typeof QUANTITIES)[number])) continue;
    const rows = batches.get(batch) ?? new Map<string, Row>();
    const row = rows.get(type) ?? {};
    if (what === 'upload-bytes') row.bytes = m;
    else if (what === 'time') row.time = m;
    else if (what === 'host-encode-time') row.encode = m;
    else row.speedup = m;
    rows.set(type, row);
    batches.set(batch, rows);
  }
  return batches;
}

/**
 * The article's section 11 table, one per batch: bytes on the wire, median synced time of
 * transfer + device decode, speed relative to float32 with its 95% CI, and (apart) the host
 * time to encode raw pixels into the type. Null without dtypes metrics.
 */
export function renderDtypeTables(metrics: readonly Metric[]): string | null {
  const batches = rowsByBatch(metrics);
  if (batches.size === 0) return null;
  const out: string[] = [];
  for (const [batch, rows] of batches) {
    const table = new Table({
      head: ['type', 'bytes on the wire', 'transfer + decode ms', 'speed vs float32 (95% CI)', '', 'host encode ms'],
      style: { head: [], border: [] },
    });
    const types = [...rows.keys()].sort((a, b) => TYPE_ORDER.indexOf(a) - TYPE_ORDER.indexOf(b));
    for (const type of types) {
      const { bytes, time, speedup, encode } = rows.get(type)!;
      const ratio =
        type === 'float32'
          ? '1 (reference)'
          : speedup
            ? `${speedup.value.toFixed(2)}x${speedup.ci ? ` [${speedup.ci[0].toFixed(2)}, ${speedup.ci[1].toFixed(2)}]` : ''}`
            : '';
      table.push([
        type,
        bytes ? formatValue(bytes) : '',
        time ? significant(time.value) : '',
        ratio,
        speedup ? verdict(speedup) : '',
        encode ? significant(encode.value) : '',
      ]);
    }
    const n = [...rows.values()].find((r) => r.speedup?.n)?.speedup?.n;
    out.push(`Data types on the wire (article section 11), batch ${batch}${n ? `, ${n} interleaved rounds` : ''}\n${table.toString()}`);
  }
  return out.join('\n\n');
}

/** What half precision exists on this backend (article section 13), from the run's capabilities. */
export function renderHalfPrecision(capabilities: RunRecord['profile']['capabilities']): string | null {
  const lines = HALF_PRECISION.filter((k) => capabilities[k]).map((k) => `  ${k}: ${capabilities[k]!.supported ? 'yes' : 'NO'}. ${capabilities[k]!.detail}`);
  return lines.length > 0 ? `Half precision (article section 13):\n${lines.join('\n')}` : null;
}

/** The dtypes section of a run report: the tables and the half-precision capabilities; null when the run has no dtypes metrics. */
export function renderDtypeSection(record: RunRecord): string | null {
  const tables = renderDtypeTables(record.metrics);
  if (!tables) return null;
  const half = renderHalfPrecision(record.profile.capabilities);
  return half ? `${tables}\n\n${half}` : tables;
}
