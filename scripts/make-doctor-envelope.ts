/**
 * Kept for the commands printed by older kits and docs; the envelope is made by
 * `npm run doctor -- --write-envelope FILE` (installed: `gtp doctor --write-envelope FILE`), and
 * this script is a thin wrapper over the same code (src/doctor/envelope-writer.ts):
 *
 *   npx tsx scripts/make-doctor-envelope.ts                      # 8 doctor processes here
 *   npx tsx scripts/make-doctor-envelope.ts --runs 12 --margin 0.3
 *   npx tsx scripts/make-doctor-envelope.ts --from a.json b.json # doctor --json reports (kit runs)
 *
 * It keeps two knobs the doctor flag leaves at their defaults: --margin (0.5) and
 * --include-busy (reports made on a busy host are set aside otherwise), and --note.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_ENVELOPE_PROCESSES, DEFAULT_MARGIN, EnvelopeInputError, writeEnvelope } from '../src/doctor/envelope-writer.js';
import { DoctorFileError } from '../src/doctor/files.js';
import { OutputPathError } from '../src/results/output-guard.js';
import { EXIT } from '../src/results/exit.js';
import { gitState } from '../src/runner/git.js';

function usage(message: string): never {
  console.error(
    `error: ${message}\nusage: npx tsx scripts/make-doctor-envelope.ts [--runs N] [--margin M] [--quick] [--backend B] [--out FILE] [--include-busy] [--note TEXT] [--from REPORT.json ...]`,
  );
  process.exit(EXIT.badInput);
}

function options() {
  let parsed: ReturnType<typeof parseArgs<{ allowPositionals: true; options: typeof OPTIONS }>>;
  try {
    parsed = parseArgs({ allowPositionals: true, options: OPTIONS });
  } catch (error) {
    return usage((error as Error).message);
  }
  const { values, positionals } = parsed;
  const runs = Number(values.runs ?? DEFAULT_ENVELOPE_PROCESSES);
  const margin = Number(values.margin ?? DEFAULT_MARGIN);
  if (!Number.isInteger(runs) || runs < 2) usage('--runs must be an integer >= 2');
  if (!(margin >= 0 && margin < 1)) usage('--margin must be in [0, 1)');
  if (values.from && positionals.length === 0) usage('--from needs doctor report files');
  if (!values.from && positionals.length > 0) usage(`unexpected arguments: ${positionals.join(' ')} (report files go after --from)`);
  return { values, positionals, runs, margin };
}

const OPTIONS = {
  runs: { type: 'string' },
  margin: { type: 'string' },
  quick: { type: 'boolean' },
  backend: { type: 'string' },
  out: { type: 'string' },
  from: { type: 'boolean' },
  note: { type: 'string' },
  'include-busy': { type: 'boolean' },
} as const;

const { values, positionals, runs, margin } = options();
try {
  const { path } = await writeEnvelope({
    out: values.out ?? null,
    from: values.from ? positionals : [],
    processes: runs,
    margin,
    includeBusy: values['include-busy'] === true,
    note: values.note ?? null,
    quick: values.quick === true,
    backend: values.backend ?? null,
    force: false,
    selfCommand: [process.execPath, ...process.execArgv, fileURLToPath(new URL('../src/cli/main.ts', import.meta.url))],
    git: gitState().commit,
    say: (line) => console.log(line),
  });
  console.log(`envelope: ${path} (commit it beside the profile's baseline)`);
} catch (error) {
  if (!(error instanceof EnvelopeInputError || error instanceof DoctorFileError || error instanceof OutputPathError)) throw error;
  usage(error.message);
}
