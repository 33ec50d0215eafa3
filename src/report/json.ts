import type { Exporter } from './exporter.js';
import { verdictLabel } from './comparison.js';

/**
 * The verdicts as JSON (`--json FILE`): the comparison, or a note that there was none. Each
 * verdict keeps its fields and adds `label`, the word every other report shows: a ratio or time
 * of one process is 'info (one process)' (or 'fails/passes (--gate-timing)'), whatever its
 * internal `verdict` ('improved', 'regressed') says, and a verdict that does not gate is '... (info)'.
 */
export const jsonExporter: Exporter = {
  format: 'json',
  render({ record, comparison }) {
    const body = comparison
      ? { ...comparison, verdicts: comparison.verdicts.map((v) => ({ ...v, label: verdictLabel(v) })) }
      : { runProfile: record.profile.id, scale: record.scale, refused: 'no baseline for this profile', verdicts: [] };
    return `${JSON.stringify(body, null, 2)}\n`;
  },
};
