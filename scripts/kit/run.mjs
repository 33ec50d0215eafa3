// The run kit's launcher (started by ./run): doctor, then the perf suite, then the HTML report
// where this version has one, each a child process whose output is shown and kept in a log.
// Plain JavaScript: it must start before anything is known about the machine.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nextSteps, recordProfile } from './next-steps.mjs';

const USAGE = `usage: ./run [--expect-gpu] [--doctor-runs N] [perf flags]

Runs \`doctor\` (N times, default 3: enough processes to make this profile's doctor envelope),
then \`perf\` with the given flags, then the HTML report when this version has one. Everything
goes to results/<time>/: run.json (the run record), run.html (the report, where this version
makes one), doctor-<i>.json, one log per step.

  --expect-gpu      doctor fails on a software adapter or a CPU fallback; then perf is not run
  --doctor-runs N   doctor processes (0 skips doctor)
  perf flags        e.g. --backend webgpu, --scale full, --scenario 6 (see: ./run --help-perf)

Exit: the worst of doctor's and perf's exit codes (0 pass, 1 a failed check or scenario,
2 bad usage, 3 no baseline to judge against with PERF_REQUIRE_BASELINE=1).`;

const major = Number(process.versions.node.split('.')[0]);
if (major < 20) {
  console.error(`error: Node ${process.version} is too old: the kit needs Node >= 20`);
  process.exit(2);
}

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
process.chdir(ROOT);
const TSX = join('node_modules', 'tsx', 'dist', 'cli.mjs');
const MAIN = join('src', 'cli', 'main.ts');
// The Vulkan loader prints an error line when XDG_RUNTIME_DIR is unset; the kit's folder will do.
const env = { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR || join(ROOT, 'results') };

/** Launcher flags out, perf flags through; doctor gets perf's --backend. */
function parse(argv) {
  const perf = [];
  let expectGpu = false;
  let doctorRuns = 3;
  let backend = null;
  let out = null;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    // A launcher flag's value: '--flag=v' or the next argument. A missing one is an error: taking
    // the default instead ran the whole suite and wrote the record where the user did not ask.
    const value = (flag, what) => {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i];
      if (v === undefined || v === '' || (!a.includes('=') && v.startsWith('--'))) throw new Error(`${flag} needs a value (${what})`);
      return v;
    };
    if (a === '--help' || a === '-h') return { help: true };
    if (a === '--help-perf') return { helpPerf: true };
    if (a === '--expect-gpu') expectGpu = true;
    else if (a === '--doctor-runs' || a.startsWith('--doctor-runs=')) {
      const v = value('--doctor-runs', 'a whole number of doctor processes');
      if (!/^\d+$/.test(v)) throw new Error(`--doctor-runs must be a whole number, got '${v}'`);
      doctorRuns = Number(v);
    } else if (a === '--out' || a.startsWith('--out=')) {
      out = value('--out', 'the run record file to write');
    } else {
      if (a === '--backend') backend = argv[i + 1] ?? null;
      if (a.startsWith('--backend=')) backend = a.slice('--backend='.length);
      perf.push(a);
    }
  }
  return { perf, expectGpu, doctorRuns, backend, out };
}

/**
 * Checks the perf flags as perf will, before any doctor run (src/kit/check-perf-flags.ts): its
 * one-line cause goes to the console. Resolves to its exit code (2: bad flags).
 */
function checkPerfFlags(flags) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TSX, join('src', 'kit', 'check-perf-flags.ts'), ...flags], { cwd: ROOT, env, stdio: 'inherit' });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

/** Runs the harness's CLI; its output goes to the console and to `log`. Resolves to the exit code. */
function cli(args, log) {
  return new Promise((resolve) => {
    const file = createWriteStream(log);
    const child = spawn(process.execPath, [TSX, MAIN, ...args], { cwd: ROOT, env, stdio: ['inherit', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => {
      process.stdout.write(d);
      file.write(d);
    });
    child.stderr.on('data', (d) => {
      process.stderr.write(d);
      file.write(d);
    });
    child.on('close', (code, signal) => file.end(() => resolve(code ?? (signal ? 128 : 1))));
  });
}

async function main() {
  let o;
  try {
    o = parse(process.argv.slice(2));
  } catch (error) {
    console.error(`error: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (o.help) {
    console.log(USAGE);
    return 0;
  }
  if (o.helpPerf) {
    mkdirSync('results', { recursive: true });
    return cli(['perf', '--help'], join('results', 'perf-help.log'));
  }
  // Bad perf flags are found in a second, not after the doctor runs; nothing is written.
  const flagsCode = await checkPerfFlags(o.perf);
  if (flagsCode !== 0) {
    console.error('(./run --help: the launcher flags; ./run --help-perf: every perf flag)');
    return flagsCode;
  }
  const kit = existsSync('KIT.json') ? JSON.parse(readFileSync('KIT.json', 'utf8')) : null;
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const dir = join('results', stamp);
  mkdirSync(dir, { recursive: true });
  const record = o.out ?? join(dir, 'run.json');
  if (kit) console.log(`gpu-transfer-perf kit ${kit.version} (${kit.platform}), built ${kit.builtAt} from ${kit.git.commit ?? 'no git commit'}${kit.git.dirty ? ' with uncommitted changes' : ''}; Node ${process.version}`);
  console.log(`results: ${dir}\n`);

  let doctorCode = 0;
  for (let i = 1; i <= o.doctorRuns; i++) {
    console.log(`== doctor ${i}/${o.doctorRuns}`);
    const args = ['doctor', '--json', join(dir, `doctor-${i}.json`), ...(o.backend ? ['--backend', o.backend] : []), ...(o.expectGpu ? ['--expect-gpu'] : [])];
    const code = await cli(args, join(dir, `doctor-${i}.log`));
    doctorCode = Math.max(doctorCode, code);
    if (code === 2 || (code !== 0 && o.expectGpu)) {
      console.error(`\ndoctor exited ${code}${o.expectGpu ? ' under --expect-gpu' : ''}: the perf suite was not run (see ${join(dir, `doctor-${i}.log`)})`);
      return code;
    }
    console.log('');
  }

  console.log('== perf');
  const perfCode = await cli(['perf', '--out', record, ...o.perf], join(dir, 'perf.log'));
  // perf writes the HTML report beside the record (run.html); older versions only had `report`.
  const html = record.endsWith('.json') ? `${record.slice(0, -'.json'.length)}.html` : `${record}.html`;
  if (existsSync(record) && !existsSync(html)) {
    console.log('\n== report');
    const code = await cli(['report', record, '--out', html], join(dir, 'report.log'));
    if (!existsSync(html)) console.log(`(no HTML report: the report command exited ${code}; see ${join(dir, 'report.log')})`);
  }
  const report = existsSync(html) ? html : null;

  console.log(`\n== done: doctor exit ${doctorCode}, perf exit ${perfCode}`);
  if (!existsSync(record)) {
    console.log(`no run record was written (see ${join(dir, 'perf.log')})`);
    return Math.max(doctorCode, perfCode, 1);
  }
  console.log(`run record: ${record}${report ? `\nHTML report: ${report}` : ''}`);
  console.log(`\n${nextSteps(dir, record, recordProfile(record))}`);
  return Math.max(doctorCode, perfCode);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(error);
    process.exitCode = 1;
  },
);
