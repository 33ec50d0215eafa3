import { SCHEMA_VERSION } from './schema.js';

/** The oldest run-record/baseline schema this harness still reads (migrated on read). */
export const OLDEST_READABLE_VERSION = 2;

type Json = Record<string, unknown>;

/** 2 -> 3: `dataset` (MNIST only) becomes `datasets.mnist`; `profiles` (kernel tables) becomes `kernelTables`. */
function from2(doc: Json): Json {
  const { dataset, profiles, ...rest } = doc;
  return { ...rest, schemaVersion: 3, datasets: { mnist: dataset }, ...(profiles === undefined ? {} : { kernelTables: profiles }) };
}

/** 3 -> 4: adds the optional `skipped` (run records) and `lacks` (baselines); a version 3 document has neither. */
function from3(doc: Json): Json {
  return { ...doc, schemaVersion: 4 };
}

const STEPS: Record<number, (doc: Json) => Json> = { 2: from2, 3: from3 };

/**
 * Brings a parsed run record or baseline of an older schema up to the current one, step by
 * step; documents already current (or not objects) pass through for the schema to judge.
 */
export function migrateToCurrent(json: unknown): unknown {
  if (typeof json !== 'object' || json === null) return json;
  let doc = json as Json;
  while (typeof doc.schemaVersion === 'number' && doc.schemaVersion < SCHEMA_VERSION) {
    const step = STEPS[doc.schemaVersion];
    if (!step) return doc;
    doc = step(doc);
  }
  return doc;
}
