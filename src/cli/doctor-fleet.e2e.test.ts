// `gtp doctor --health-check` and `--prometheus` as a fleet runs them: the real CLI in a child
// process, timed against Slurm's 60 s; its textfile served by a real prometheus-node-exporter and
// scraped by a real Prometheus server, read back over Prometheus' HTTP API. One doctor
// measurement serves every case that needs one.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, ROOT } from '../../test/support/cli.js';
import { readDoctorReport } from '../doctor/files.js';
import { sizeOfFigure } from '../doctor/prometheus.js';
import { tempFolder } from '../../test/support/temp-folder.js';

const H200_REPORT = join(ROOT, 'fixtures/runs/h200-2026-12-04/doctor-1.json');
/** The contract, not a benchmark: Slurm kills its HealthCheckProgram at 60 s (slurm.conf). */
const SLURM_LIMIT_MS = 60_000;

/** Runs the CLI and measures its wall time (the child's whole life: start, measure, exit). */
async function timed(args: string[]) {
  const start = performance.now();
  const result = await cli(['doctor', ...args], ROOT, { env: process.env, timeoutMs: 90_000 });
  return { ...result, ms: performance.now() - start };
}

const temp = tempFolder('gtp-fleet-');
let textfiles: string;
let live: Awaited<ReturnType<typeof timed>>;
let degraded: typeof live;
let late: typeof live;
let fromOther: typeof live;
let fromReport: typeof live;
beforeAll(async () => {
  textfiles = temp.at('textfile');
  // The one measurement: a health check on this machine that also writes the textfile node exporter serves below.
  live = await timed(['--health-check', '--prometheus', join(textfiles, 'gtp-doctor.prom')]);
  // Then the runs that measure nothing (or are cut short at 1 s), side by side.
  [degraded, late, fromOther, fromReport] = await Promise.all([
    timed(['--health-check', '--sysfs-root', join('fixtures', 'sysfs', 'gen3-x8-degraded')]),
    // A 1 s deadline ends the measuring run (a quick doctor measures for seconds) as the 50 s default would a hung one.
    timed(['--health-check', '--deadline', '1']),
    timed(['--health-check', '--from', H200_REPORT]),
    timed(['--health-check', '--from', H200_REPORT, '--from-other-machine']),
  ]);
}, 180_000);

describe('gtp doctor --health-check', () => {
  it('on this machine: exit 0 and silent exactly when no check failed (as its own textfile says), within 60 s', async () => {
    expect(live.ms).toBeLessThan(SLURM_LIMIT_MS);
    const text = await readFile(join(textfiles, 'gtp-doctor.prom'), 'utf8');
    const failed = [...text.matchAll(/^gtp_doctor_check_state\{check="([^"]+)",.*gtp_doctor_check_state="fail"\} 1$/gm)].map((m) => m[1]);
    expect(text).toMatch(/^gtp_doctor_check_state\{check="device\.correct",/m); // it measured
    if (failed.length === 0) expect({ code: live.code, stdout: live.stdout }).toEqual({ code: 0, stdout: '' });
    else {
      expect(live.code).toBe(1);
      expect(live.stdout).toMatch(/^ERROR gtp doctor: \S.* \(.*\)(; also failed: .*)?\n$/);
    }
    // Silent means silent: Dawn's limit notices too are kept off stderr (issue 41, item 5).
    expect(live.stderr).toBe('');
    // The temp name (not *.prom) was renamed away: only the textfile is left.
    expect(await readdir(textfiles)).toEqual(['gtp-doctor.prom']);
  });

  it('on a copy of a machine whose GPU link trained down: one ERROR line naming device and figures, exit 1, within 60 s', () => {
    const r = degraded;
    expect(r.ms).toBeLessThan(SLURM_LIMIT_MS);
    expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({
      code: 1,
      stdout:
        'ERROR gtp doctor: 0000:1a:00.0 (10de:2330) PCIe link degraded (7.9 of 63.0 GB/s; 0000:1a:00.0 at Gen3 x8 8.0 GT/s, capable Gen5 x16 32.0 GT/s)\n',
      stderr: '',
    });
  });

  it('past its deadline: one UNKNOWN line and exit 2, never a degraded node', () => {
    const r = late;
    expect(r.code).toBe(2);
    expect(r.stdout).toBe(
      'UNKNOWN gtp doctor: this node could not measure (no verdict within 1 s, the --deadline; Slurm kills its HealthCheckProgram at 60 s)\n',
    );
  });

  it("a report of another machine (--from the H200's here): UNKNOWN, exit 2, one line naming both", () => {
    expect({ code: fromOther.code, stderr: fromOther.stderr }).toEqual({ code: 2, stderr: '' });
    expect(fromOther.stdout).toMatch(
      /^UNKNOWN gtp doctor: webgpu-nvidia-h200-x64 could not measure \(the --from report is of another machine: profile webgpu-nvidia-h200-x64 \(Intel\(R\) Xeon\(R\) Processor, 16 cores\), and this machine has .+, \d+ cores; pass --from-other-machine to judge it anyway\)\n$/,
    );
  });

  it("judges a report already made (--from, --from-other-machine): the H200's is healthy, silent, exit 0", () => {
    const r = fromReport;
    expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});

/** A free TCP port on the loopback address (the OS picks it; closed again before the server takes it). */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/** The binaries the test serves with; absent, the test fails saying how to install them (never skips). */
function requireBinary(name: string): void {
  const r = spawnSync(name, ['--version'], { encoding: 'utf8' });
  if ((r.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    throw new Error(`${name} is not installed: run \`npm run setup:system\` (it installs Debian's prometheus and prometheus-node-exporter; CI runs it)`);
  }
}

/** A server this test started: its process and what it printed, for the failure message. */
interface Served {
  readonly child: ChildProcess;
  log: string;
}

function serve(command: string, args: string[]): Served {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const served: Served = { child, log: '' };
  const keep = (b: Buffer) => {
    served.log = (served.log + b.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return served;
}

/** Stops a server: SIGTERM, then SIGKILL if it has not exited within 5 s. */
async function stop(served: Served | undefined): Promise<void> {
  if (!served || served.child.exitCode !== null || served.child.signalCode !== null) return;
  const exited = new Promise<void>((done) => served.child.once('exit', () => done()));
  served.child.kill('SIGTERM');
  const timer = setTimeout(() => served.child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

interface Sample {
  readonly metric: Record<string, string>;
  readonly value: [number, string];
}

describe('gtp doctor --prometheus through node exporter into Prometheus', () => {
  let exporter: Served | undefined;
  let prometheus: Served | undefined;
  let api: string;

  /** Prometheus' instant query over its HTTP API. */
  async function query(promql: string): Promise<Sample[]> {
    const response = await fetch(`${api}/api/v1/query?query=${encodeURIComponent(promql)}`);
    const body = (await response.json()) as { status: string; data?: { result: Sample[] }; error?: string };
    if (body.status !== 'success') throw new Error(`query ${promql}: ${body.error}`);
    return body.data!.result;
  }

  beforeAll(async () => {
    requireBinary('prometheus');
    requireBinary('prometheus-node-exporter');
    // Beside the measured textfile: the H200's report exported as a fleet node's own file would be,
    const h200 = await cli(['doctor', '--from', H200_REPORT, '--prometheus', join(textfiles, 'gtp-doctor-h200.prom')], ROOT);
    expect(h200.code, h200.stderr).toBe(0);
    // and, standing in for DCGM exporter (no NVIDIA GPU here), one series as it labels the H200
    // (its documented labels: gpu, UUID, pci_bus_id, device, modelName, Hostname), to run the
    // join docs/doctor-and-kit.md gives.
    await writeFile(
      join(textfiles, 'dcgm-stand-in.prom'),
      '# HELP DCGM_FI_DEV_GPU_TEMP GPU temperature (in C).\n# TYPE DCGM_FI_DEV_GPU_TEMP gauge\n' +
        'DCGM_FI_DEV_GPU_TEMP{gpu="0",UUID="GPU-00000000-0000-0000-0000-000000000000",pci_bus_id="00000000:00:06.0",device="nvidia0",modelName="NVIDIA H200",Hostname="127.0.0.1"} 31\n',
    );
    const [exporterPort, prometheusPort] = [await freePort(), await freePort()];
    exporter = serve('prometheus-node-exporter', [
      `--web.listen-address=127.0.0.1:${exporterPort}`,
      '--collector.disable-defaults',
      '--collector.textfile',
      `--collector.textfile.directory=${textfiles}`,
    ]);
    const config = temp.at('prometheus.yml');
    await writeFile(
      config,
      `global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n  - job_name: node\n    static_configs:\n      - targets: ['127.0.0.1:${exporterPort}']\n`,
    );
    prometheus = serve('prometheus', [`--config.file=${config}`, `--storage.tsdb.path=${temp.at('tsdb')}`, `--web.listen-address=127.0.0.1:${prometheusPort}`]);
    api = `http://127.0.0.1:${prometheusPort}`;
    // Until the first scrape is stored (about 2-6 s after start here).
    const until = Date.now() + 30_000;
    for (;;) {
      const got = await query('gtp_doctor_build_info').catch(() => []);
      if (got.length >= 2) break;
      if (Date.now() > until || prometheus.child.exitCode !== null || exporter.child.exitCode !== null) {
        throw new Error(`no doctor series in Prometheus within 30 s\nnode exporter: ${exporter.log}\nprometheus: ${prometheus.log}`);
      }
      await new Promise((done) => setTimeout(done, 250));
    }
  }, 60_000);
  afterAll(async () => {
    await stop(prometheus);
    await stop(exporter);
  });

  it('scrapes both textfiles without error', async () => {
    const errors = await query('node_textfile_scrape_error');
    expect(errors.map((s) => s.value[1])).toEqual(['0']);
    const files = await query('node_textfile_mtime_seconds');
    expect(files.map((s) => basename(s.metric.file ?? '')).sort()).toEqual(['dcgm-stand-in.prom', 'gtp-doctor-h200.prom', 'gtp-doctor.prom']);
  });

  it("reads back this machine's measured uploads, exactly, and every check's state", async () => {
    const text = await readFile(join(textfiles, 'gtp-doctor.prom'), 'utf8');
    const profile = /^gtp_doctor_build_info\{.*profile="([^"]+)"\} 1$/m.exec(text)![1]!;
    const uploads = await query(`gtp_doctor_upload_bytes_per_second{profile="${profile}"}`);
    const inFile = [...text.matchAll(/^gtp_doctor_upload_bytes_per_second\{.*size_bytes="(\d+)"\} (\S+)$/gm)].map((m) => [m[1], Number(m[2])]);
    expect(inFile.length).toBeGreaterThanOrEqual(4);
    expect(uploads.map((s) => [s.metric.size_bytes, Number(s.value[1])]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual(inFile);
    const checks = await query(`gtp_doctor_check_state{profile="${profile}"} == 1`);
    const states = Object.fromEntries(checks.map((s) => [s.metric.check, s.metric.gtp_doctor_check_state]));
    expect(states['device.correct']).toBe('ok');
    expect(Object.keys(states).length).toBe(new Set([...text.matchAll(/^gtp_doctor_check_state\{check="([^"]+)"/gm)].map((m) => m[1])).size);
  });

  it("serves the H200 report's link and uploads as its figures say, and joins DCGM's series on pci_bus_id", async () => {
    const report = await readDoctorReport(H200_REPORT);
    const gen = await query('gtp_doctor_pcie_link_current_generation{pci_bus_id="00000000:00:06.0"}');
    expect(gen.map((s) => [s.metric.gpu, s.metric.model_name, s.metric.hop, s.value[1]])).toEqual([['0', '10de:2335', '00000000:00:06.0', '5']]);
    const upload = await query('gtp_doctor_upload_bytes_per_second{pci_bus_id="00000000:00:06.0",size_bytes="268435456"}');
    const figure = report.figures.find((f) => sizeOfFigure(f.id, 'upload') === 268435456)!;
    expect(upload.map((s) => Number(s.value[1]))).toEqual([figure.value * 1e9]);
    // The join of docs/doctor-and-kit.md: node exporter's instance host is DCGM's Hostname.
    const joined = await query(
      'label_replace(gtp_doctor_upload_bytes_per_second{size_bytes="268435456"}, "Hostname", "$1", "instance", "(.+):[0-9]+")' +
        ' * on (Hostname, pci_bus_id) group_left (modelName, UUID) group by (Hostname, pci_bus_id, modelName, UUID) (DCGM_FI_DEV_GPU_TEMP)',
    );
    expect(joined.map((s) => [s.metric.modelName, s.metric.pci_bus_id, Number(s.value[1])])).toEqual([['NVIDIA H200', '00000000:00:06.0', figure.value * 1e9]]);
    const failing = await query('gtp_doctor_check_state{profile="webgpu-nvidia-h200-x64",gtp_doctor_check_state="fail"} == 1');
    expect(failing).toEqual([]);
  });
});
