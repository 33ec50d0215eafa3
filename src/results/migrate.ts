import { directionOf, type DirectionInput } from './direction.js';
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

/**
 * 4 -> 5: each metric gets the direction its kind and id imply (directionOf); a metric that is not
 * an object is left for the schema to refuse.
 */
function from4(doc: Json): Json {
  const metrics = Array.isArray(doc.metrics)
    ? doc.metrics.map((m: unknown) =>
        typeof m === 'object' && m !== null && typeof (m as Json).id === 'string' && typeof (m as Json).kind === 'string'
          ? { ...(m as Json), direction: directionOf({ ...(m as DirectionInput), unit: String((m as Json).unit ?? ''), direction: undefined }) }
          : m,
      )
    : doc.metrics;
  return { ...doc, schemaVersion: 5, metrics };
}

const STEPS: Record<number, (doc: Json) => Json> = { 2: from2, 3: from3, 4: from4 };

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
