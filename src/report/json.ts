import type { Exporter } from './exporter.js';

/** The verdicts as JSON (`--json FILE`): the comparison, or a note that there was none. */
export const jsonExporter: Exporter = {
  format: 'json',
  render({ record, comparison }) {
    const body = comparison ?? { runProfile: record.profile.id, scale: record.scale, refused: 'no baseline for this profile', verdicts: [] };
    return `${JSON.stringify(body, null, 2)}\n`;
  },
};
