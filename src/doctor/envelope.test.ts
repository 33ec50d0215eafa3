import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  deriveEnvelope,
  envelopeCommand,
  envelopeInputProblem,
  envelopePathFor,
  findEnvelope,
  foreignEnvelopeCheck,
  formatFigure,
  judgeFigure,
  noEnvelopeCheck,
  readEnvelope,
  remakeAdvice,
} from './envelope.js';
import { EnvelopeInputError, writeEnvelope } from './envelope-writer.js';
import { DoctorFileError } from './files.js';
import type { DoctorReport, Envelope, Figure } from './schema.js';

const figure = (id: string, value: number, unit: Figure['unit'] = 'GB/s'): Figure => ({ id, label: id, value, unit, n: 5, detail: 'test' });

function report(values: Record<string, number>, overrides: Partial<DoctorReport> = {}): DoctorReport {
  return {
    schemaVersion: 1,
    kind: 'gpu-transfer-perf doctor report',
    createdAt: '2026-01-01T00:00:00.000Z',
    settings: { backend: 'auto', quick: false, expectGpu: false },
    profile: { id: 'webgpu-lavapipe-x64', backend: 'webgpu', adapter: 'llvmpipe', isSoftware: true, cpu: 'AMD EPYC', cores: 2 },
    node: 'v20.20.2',
    os: 'linux',
    host: { load1: 0.5, cores: 2, otherCpu: 0.02, busy: false },
    checks: [{ id: 'webgpu.software', status: 'warn', reason: 'software' }],
    figures: Object.entries(values).map(([id, v]) => figure(id, v)),
    envelope: { path: null, found: false },
    durationSeconds: 3,
    exitCode: 0,
    ...overrides,
  };
}

const REMAKE = 'gtp doctor --write-envelope baselines/webgpu-lavapipe-x64.doctor.json';
const QUIET = { isSoftware: false, busy: false, remake: REMAKE };
const ENVELOPE: Envelope = deriveEnvelope([report({ 'upload.1mib': 10 }), report({ 'upload.1mib': 20 })], {
  margin: 0.5,
  machine: 'test',
  git: null,
  note: 'test',
});

describe('doctor envelopes', () => {
  it('live beside the profile baseline', () => {
    expect(envelopePathFor('webgpu-nvidia-h200-x64')).toBe(join('baselines', 'webgpu-nvidia-h200-x64.doctor.json'));
  });

  it("are made from the processes' span, widened by the margin", () => {
    expect(ENVELOPE.figures['upload.1mib']).toEqual({ unit: 'GB/s', lo: 5, hi: 30, observed: { n: 2, min: 10, median: 15, max: 20 } });
    expect(ENVELOPE.derivation).toMatchObject({ processes: 2, margin: 0.5, quick: false });
  });

  it('judge a figure: within is ok, below fails with the distance and what to check, above warns', () => {
    expect(judgeFigure(figure('upload.1mib', 12), ENVELOPE, QUIET)).toMatchObject({
      status: 'ok',
      reason: expect.stringMatching(/within the range of webgpu-lavapipe-x64 \(5.00-30.0 GB\/s\)/),
    });
    const below = judgeFigure(figure('upload.1mib', 2.9), ENVELOPE, QUIET);
    expect(below).toMatchObject({
      id: 'figure.upload.1mib',
      status: 'fail',
      reason: expect.stringMatching(/2.90 GB\/s: 42% below the range of webgpu-lavapipe-x64.*PCIe link/),
    });
    expect(judgeFigure(figure('upload.1mib', 2.9), ENVELOPE, { isSoftware: true, busy: false, remake: REMAKE }).reason).toMatch(
      /software adapter the device is the CPU/,
    );
    expect(judgeFigure(figure('upload.1mib', 2.9), ENVELOPE, { isSoftware: false, busy: true, remake: REMAKE })).toMatchObject({
      status: 'warn',
      reason: expect.stringMatching(/42% below.*host was busy/),
    });
    expect(judgeFigure(figure('upload.1mib', 45), ENVELOPE, QUIET)).toMatchObject({ status: 'warn', reason: expect.stringMatching(/50% above/) });
    expect(judgeFigure(figure('copy.1mib', 1), ENVELOPE, QUIET).status).toBe('info');
  });

  it('refuse reports of mixed profiles or settings, or with failed setup checks (not failed figures)', () => {
    const other = report({}, { profile: { ...report({}).profile!, id: 'wasm-amd-epyc-x64' } });
    expect(envelopeInputProblem([report({}), other])).toMatch(/one profile/);
    expect(envelopeInputProblem([report({}), report({}, { settings: { backend: 'auto', quick: true, expectGpu: false } })])).toMatch(/--quick/);
    expect(envelopeInputProblem([report({}, { checks: [{ id: 'device.correct', status: 'fail', reason: 'x' }] })])).toMatch(/device.correct/);
    expect(envelopeInputProblem([report({}, { checks: [{ id: 'figure.copy.1mib', status: 'fail', reason: 'x' }] })])).toBeNull();
    expect(envelopeInputProblem([report({}, { host: { load1: 4.4, cores: 2, otherCpu: 0.6, busy: true } })])).toMatch(
      /busy host \(other processes used 60% of 2 cores\)/,
    );
    expect(() => deriveEnvelope([], { margin: 0.3, machine: '', git: null, note: '' })).toThrow(/no doctor reports/);
  });

  it('advise only a doctor flag, never a repository script (the installed package ships no scripts/)', () => {
    const path = envelopePathFor('webgpu-nvidia-h200-x64');
    const command = envelopeCommand(path, 'webgpu', false);
    expect(command).toBe(`npx gtp doctor --backend webgpu --write-envelope ${path}`);
    const advice = noEnvelopeCheck('webgpu-nvidia-h200-x64', path, command, false).reason;
    expect(advice).toContain(`on an idle machine \`${command}\` (doctor in 8 processes), or from kit runs \`${command} --from results/<time>/\``);
    expect(advice).not.toMatch(/scripts\//);
    // In the kit, nothing of npm runs: the advice is for the repository, with the kit run's reports.
    expect(noEnvelopeCheck('webgpu-nvidia-h200-x64', path, command, true).reason).toMatch(
      /Make one back in the repository, from this kit run's reports: `.* --from results\/<time>\/`$/,
    );
    expect(remakeAdvice(command, false)).toBe(`\`${command}\``);
    expect(judgeFigure(figure('upload.1mib', 45), ENVELOPE, QUIET).reason).toContain(`remake it: ${REMAKE}`);
  });

  it('format values with their unit and CI', () => {
    expect(formatFigure({ value: 1.0, unit: 'x', ci: [0.97, 1.031] })).toBe('1.00x [0.97, 1.03]');
    expect(formatFigure({ value: 2345.6, unit: 'GB/s' })).toBe('2346 GB/s');
    expect(formatFigure({ value: 0.2291, unit: 'fraction' })).toBe('0.229');
  });

  it('read: the legacy-named envelope serves the machine it was made on only (issue 25 #6)', async () => {
    const legacy = await readEnvelope(join('baselines', 'webgpu-lavapipe-x64.doctor.json'));
    expect(legacy?.derivation.machine).toMatch(/^AMD EPYC x2, /);
    expect(await readEnvelope(envelopePathFor('webgpu-lavapipe-amd-epyc-2c-x64'))).toEqual(legacy);
    expect(await readEnvelope(envelopePathFor('webgpu-lavapipe-amd-epyc-4c-x64'))).toBeNull();
    expect(await readEnvelope(envelopePathFor('webgpu-lavapipe-intel-xeon-2c-x64'))).toBeNull();
  });

  it('read: absent is null, a bad file is refused by name', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gtp-envelope-'));
    try {
      expect(await readEnvelope(join(dir, 'absent.doctor.json'))).toBeNull();
      const bad = join(dir, 'bad.doctor.json');
      await writeFile(bad, JSON.stringify({ ...ENVELOPE, schemaVersion: 2 }));
      await expect(readEnvelope(bad)).rejects.toThrow(DoctorFileError);
      await expect(readEnvelope(bad)).rejects.toThrow(/bad.doctor.json: not a gpu-transfer-perf doctor envelope of schemaVersion 1 \(it has 2\)/);
      const good = join(dir, 'good.doctor.json');
      await writeFile(good, JSON.stringify(ENVELOPE));
      expect(await readEnvelope(good)).toEqual(ENVELOPE);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("are written by doctor --write-envelope from a kit run's folder of reports (--from), never over another kind of file", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gtp-envelope-'));
    try {
      const kit = join(dir, 'results');
      await mkdir(kit);
      await writeFile(join(kit, 'doctor-1.json'), JSON.stringify(report({ 'upload.1mib': 10 })));
      await writeFile(join(kit, 'doctor-2.json'), JSON.stringify({ ...report({ 'upload.1mib': 20 }), schemaVersion: 2, host: null }));
      await writeFile(join(kit, 'run.json'), '{}');
      const lines: string[] = [];
      const options = {
        out: join(dir, 'x.doctor.json'),
        from: [kit],
        processes: 8,
        margin: 0.5,
        includeBusy: false,
        note: null,
        quick: false,
        backend: null,
        force: false,
        selfCommand: [],
        git: null,
        say: (line: string) => lines.push(line),
      };
      const { envelope, path } = await writeEnvelope(options);
      expect(path).toBe(options.out);
      expect(envelope.figures['upload.1mib']).toMatchObject({ lo: 5, hi: 30 });
      expect(await readEnvelope(path)).toEqual(envelope);
      expect(lines.some((l) => /^upload\.1mib +2 +10\.0 +15\.0 +20\.0 +2\.00 +5\.00-30\.0 GB\/s$/.test(l))).toBe(true);
      await expect(writeEnvelope({ ...options, out: join(kit, 'run.json') })).rejects.toThrow(/exists and is not a doctor envelope/);
      await expect(writeEnvelope({ ...options, from: [join(dir, 'none')] })).rejects.toThrow(EnvelopeInputError);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  describe('an envelope of this device made on another CPU', () => {
    const XEON = 'webgpu-lavapipe-intel-xeon-2c-x64';
    const LEGACY = join('baselines', 'webgpu-lavapipe-x64.doctor.json');

    it('is found, never read: the committed legacy-named envelope serves the CPU it was made on only', async () => {
      expect(findEnvelope('baselines', 'webgpu-lavapipe-amd-epyc-2c-x64')).toMatchObject({
        path: LEGACY,
        foreign: null,
        note: expect.stringMatching(/serves/),
      });
      const found = findEnvelope('baselines', XEON);
      expect(found).toEqual({
        path: join('baselines', `${XEON}.doctor.json`),
        note: null,
        foreign: { path: LEGACY, profile: 'webgpu-lavapipe-x64', madeOn: 'AMD EPYC, 2 cores' },
      });
      expect(await readEnvelope(found.path)).toBeNull();
      // Another core count of the same CPU is another machine too (lavapipe renders on every core).
      expect(findEnvelope('baselines', 'webgpu-lavapipe-amd-epyc-4c-x64').foreign).toMatchObject({ path: LEGACY, madeOn: 'AMD EPYC, 2 cores' });
      // A GPU's id carries no CPU: its own envelope or none, never another host's.
      expect(findEnvelope('baselines', 'webgpu-nvidia-h200-x64')).toMatchObject({ foreign: null, note: null });
    });

    it("is found under another host's id of the same device, the first by id", async () => {
      const dir = await mkdtemp(join(tmpdir(), 'gtp-env-other-'));
      try {
        const made = {
          ...ENVELOPE,
          profile: 'webgpu-lavapipe-amd-epyc-2c-x64',
          derivation: { ...ENVELOPE.derivation, machine: 'AMD EPYC 7B13 x2, linux 6.1 x64, llvmpipe' },
        };
        await writeFile(join(dir, 'webgpu-lavapipe-amd-epyc-2c-x64.doctor.json'), JSON.stringify(made));
        await writeFile(join(dir, 'webgpu-lavapipe-amd-epyc-4c-x64.doctor.json'), JSON.stringify({ ...made, profile: 'webgpu-lavapipe-amd-epyc-4c-x64' }));
        expect(findEnvelope(dir, XEON).foreign).toEqual({
          path: join(dir, 'webgpu-lavapipe-amd-epyc-2c-x64.doctor.json'),
          profile: 'webgpu-lavapipe-amd-epyc-2c-x64',
          madeOn: 'AMD EPYC 7B13, 2 cores',
        });
        expect(findEnvelope(dir, 'webgpu-lavapipe-intel-xeon-8c-x64').foreign).toBeNull();
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('is named in one info line: the file, the CPU it was made on, this CPU, why not applied, and how to make one here', () => {
      const path = envelopePathFor(XEON);
      const command = envelopeCommand(path, null, true);
      const foreign = { path: LEGACY, profile: 'webgpu-lavapipe-x64', madeOn: 'AMD EPYC, 2 cores' };
      const check = foreignEnvelopeCheck(foreign, { id: XEON, cpu: 'Intel(R) Xeon(R) Processor', cores: 2 }, path, command, false);
      expect(check).toEqual({
        id: 'envelope',
        status: 'info',
        reason: `envelope ${LEGACY} (webgpu-lavapipe-x64) is this device's made on AMD EPYC, 2 cores; this machine is Intel(R) Xeon(R) Processor, 2 cores (${XEON}): not applied, since the CPU does this device's work: its rates are the host's own, never judged across CPUs, and its ratios have no measured cross-CPU allowance; figures are shown, not judged. Make this machine's (${path}) on an idle machine \`npm run doctor -- --write-envelope ${path}\` (doctor in 8 processes), or from kit runs \`npm run doctor -- --write-envelope ${path} --from results/<time>/\``,
      });
      expect(foreignEnvelopeCheck({ ...foreign, madeOn: null }, { id: XEON, cpu: 'x', cores: 1 }, path, command, true).reason).toMatch(
        /made on a CPU it does not record; this machine is x, 1 core .*Make this machine's .* back in the repository, from this kit run's reports/,
      );
    });
  });
});
