import { existsSync, readdirSync } from 'node:fs';
import { readRegularFileSync } from '../base/regular-file.js';
import { join } from 'node:path';
import { cpuPart, deviceAndHostOf, legacyIdOf, legacyProfileId, profileId, sameDeviceOtherHost, type ProfileParts } from '../backend/fingerprint.js';
import type { BackendName } from '../backend/types.js';

/**
 * The files a hardware profile id names, and the one lookup that finds them: the file of the id
 * first, then the file of the id the same kind of setup had before its CPU became part of it
 * (backend/fingerprint.ts legacyIdOf: 'webgpu-lavapipe-x64' for 'webgpu-lavapipe-amd-epyc-2c-x64'),
 * accepted only when what that legacy file records says it was made on this CPU model (as the id
 * slugs it) with this core count. Files are written under the new id only.
 */

/** What each kind of profile file is called: baselines/<id>.json and its neighbours, history/<id>/. */
const SUFFIX = {
  baseline: '.json',
  'full-baseline': '.full.json',
  calibration: '.calibration.json',
  envelope: '.doctor.json',
  history: '',
} as const;
export type ProfileFileKind = keyof typeof SUFFIX;

/** Where the `kind` file of profile `id` lives in `dir` (for writing: always the id given). */
export function profileFilePath(dir: string, id: string, kind: ProfileFileKind): string {
  return join(dir, `${id}${SUFFIX[kind]}`);
}

/** The part of a recorded profile (a run record's or baseline's `profile`) that ids are made of. */
export interface RecordedProfile {
  readonly id: string;
  readonly backend: BackendName;
  readonly adapter: { readonly vendor: string; readonly architecture: string; readonly device: string; readonly description: string } | null;
  readonly isUsingGpuDevice: boolean | null;
  readonly cpu: { readonly model: string; readonly cores: number };
  /** '<platform> <release> <arch>' (hardware-profile.ts): the architecture is its last word. */
  readonly os: string;
}

function partsOf(p: RecordedProfile): ProfileParts {
  return {
    backend: p.backend,
    adapter: p.adapter,
    cpuModel: p.cpu.model,
    cpuCores: p.cpu.cores,
    arch: p.os.trim().split(/\s+/).pop() ?? '',
    isUsingGpuDevice: p.isUsingGpuDevice,
  };
}

/**
 * A recorded profile with the id today's rule gives it, when it was recorded under the legacy id
 * of its own fields ('webgpu-lavapipe-x64' made on AMD EPYC x2 -> 'webgpu-lavapipe-amd-epyc-2c-x64'),
 * so that comparing ids compares machines; any other profile is returned as it is.
 */
export function withCurrentId<P extends RecordedProfile>(profile: P): P {
  const parts = partsOf(profile);
  const current = profileId(parts);
  return current !== profile.id && legacyProfileId(parts) === profile.id ? { ...profile, id: current } : profile;
}

/** Which machine a file says it was made on: its profile id and CPU (null when it names none). */
export interface RecordedMachine {
  readonly id: string;
  readonly cpu: { readonly model: string; readonly cores: number } | null;
}

/** 'AMD EPYC, 2 cores' */
export const describeCpu = (cpu: { model: string; cores: number }) => `${cpu.model}, ${cpu.cores} core${cpu.cores === 1 ? '' : 's'}`;

/**
 * Why a file (or history record) recorded as `recorded`, found under the legacy id of `id`, is
 * not this setup's; null when it is: its profile is that legacy id and its CPU, slugged as ids
 * slug it, is the one `id` names.
 */
export function legacyMismatch(id: string, recorded: RecordedMachine): string | null {
  const legacy = legacyIdOf(id);
  if (!legacy) return `${id} has no legacy id`;
  if (recorded.id !== legacy.legacyId) return `it records profile ${recorded.id}, not ${legacy.legacyId}`;
  if (!recorded.cpu) return `it records no CPU, so nothing says it was made on ${legacy.cpu}`;
  const theirs = cpuPart(recorded.cpu.model, recorded.cpu.cores);
  return theirs === legacy.cpu ? null : `it was made on ${describeCpu(recorded.cpu)} (${theirs}), this setup is ${legacy.cpu}`;
}

/** What a profile file's lookup found. */
export type ProfileFileLookup =
  /** The file named by the id itself (or, for `none`, where it would be). */
  | { readonly found: 'own' | 'none'; readonly path: string }
  /** The legacy-named file, made on this CPU with this core count. */
  | { readonly found: 'legacy'; readonly path: string; readonly note: string }
  /** A legacy-named file that is not this setup's; `path` is where this setup's own would be. */
  | { readonly found: 'other-machine'; readonly path: string; readonly legacyPath: string; readonly reason: string }
  /** The file of the same device on a host of another CPU model (lookupBaselineFile); `path` is that file, `id` its profile. */
  | { readonly found: 'other-host'; readonly path: string; readonly id: string; readonly note: string };

function parseJson(path: string): unknown {
  try {
    return JSON.parse(readRegularFileSync(path).toString('utf8'));
  } catch {
    return null;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** The machine a baseline (or run record) says it was made on: its `profile`. */
function machineOfRecord(value: unknown): RecordedMachine | null {
  const profile = isObject(value) && isObject(value.profile) ? value.profile : null;
  if (!profile || typeof profile.id !== 'string') return null;
  const cpu = isObject(profile.cpu) && typeof profile.cpu.model === 'string' && typeof profile.cpu.cores === 'number' ? profile.cpu : null;
  return { id: profile.id, cpu: cpu ? { model: cpu.model as string, cores: cpu.cores as number } : null };
}

/** The machine a doctor envelope says it was made on: its `profile` and `derivation.machine` ('AMD EPYC x2, linux ..., llvmpipe ...'). */
function machineOfEnvelope(value: unknown): RecordedMachine | null {
  if (!isObject(value) || typeof value.profile !== 'string') return null;
  const machine = isObject(value.derivation) && typeof value.derivation.machine === 'string' ? value.derivation.machine : '';
  const m = machine.match(/^(.+?) x(\d+), /);
  return { id: value.profile, cpu: m ? { model: m[1]!, cores: Number(m[2]) } : null };
}

/** The machine the doctor envelope at `path` says it was made on, or null when it is unreadable or records no profile. */
export function envelopeMachineAt(path: string): RecordedMachine | null {
  return machineOfEnvelope(parseJson(path));
}

/**
 * The machine a legacy file was made on. A calibration file records none of its own: the legacy
 * baseline beside it (quick, else full scale), whose processes it pooled, vouches for it.
 */
function recordedMachine(dir: string, legacyId: string, kind: Exclude<ProfileFileKind, 'history'>): RecordedMachine | string {
  if (kind === 'calibration') {
    const beside = [profileFilePath(dir, legacyId, 'baseline'), profileFilePath(dir, legacyId, 'full-baseline')].find((p) => existsSync(p));
    if (!beside) return `a calibration records no machine, and no ${legacyId} baseline beside it says whose it is`;
    return machineOfRecord(parseJson(beside)) ?? `${beside}, beside it, records no profile`;
  }
  const path = profileFilePath(dir, legacyId, kind);
  return (kind === 'envelope' ? machineOfEnvelope : machineOfRecord)(parseJson(path)) ?? `${path} records no profile`;
}

/**
 * The `kind` file of profile `id` in `dir`: its own if it exists, else the legacy-named one when
 * that records this setup's CPU (else `other-machine`, with why), else none. A history folder is
 * not looked into here (its records each say their machine: history/store.ts reads them).
 */
export function lookupProfileFile(dir: string, id: string, kind: Exclude<ProfileFileKind, 'history'>): ProfileFileLookup {
  const path = profileFilePath(dir, id, kind);
  if (existsSync(path)) return { found: 'own', path };
  const legacy = legacyIdOf(id);
  const legacyPath = legacy ? profileFilePath(dir, legacy.legacyId, kind) : null;
  if (!legacy || !legacyPath || !existsSync(legacyPath)) return { found: 'none', path };
  const machine = recordedMachine(dir, legacy.legacyId, kind);
  const why = typeof machine === 'string' ? machine : legacyMismatch(id, machine);
  const named = `${legacyPath} is named by the profile id of before the CPU was part of it (${legacy.legacyId})`;
  if (why === null) return { found: 'legacy', path: legacyPath, note: `${named}; made on this CPU (${legacy.cpu}), it serves ${id}` };
  return { found: 'other-machine', path, legacyPath, reason: `${named} and is another machine's: ${why}` };
}

/** The ids in `dir` that have a `kind` file named by them (not legacy names, which have their own lookup). */
function idsWithFile(dir: string, kind: Exclude<ProfileFileKind, 'history'>): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const suffix = SUFFIX[kind];
  // '.json' is also the end of the other kinds' names: a baseline's id has no dot ('x.full', 'x.calibration' are not ids).
  return names.filter((n) => n.endsWith(suffix) && !n.slice(0, -suffix.length).includes('.')).map((n) => n.slice(0, -suffix.length));
}

/**
 * The profiles in `dir` with a `kind` file that are the same device as `id` on a host of another
 * CPU model (backend/fingerprint.ts sameDeviceOtherHost), sorted by id so the choice is the same
 * on every runner.
 */
export function otherHostIds(dir: string, id: string, kind: Exclude<ProfileFileKind, 'history'>): string[] {
  return idsWithFile(dir, kind)
    .filter((other) => sameDeviceOtherHost(id, other))
    .sort();
}

/**
 * The baseline of profile `id` in `dir` (`kind` 'baseline' or 'full-baseline'): its own or its
 * legacy-named file (lookupProfileFile); when neither is this setup's, the baseline of the same
 * device recorded on a host of another CPU model (`other-host`: a software adapter on another
 * runner), judged with a host allowance (results/host-allowance.ts). Else what
 * lookupProfileFile found.
 */
export function lookupBaselineFile(dir: string, id: string, kind: 'baseline' | 'full-baseline'): ProfileFileLookup {
  const found = lookupProfileFile(dir, id, kind);
  if (found.found === 'own' || found.found === 'legacy') return found;
  const other = otherHostIds(dir, id, kind)[0];
  if (other === undefined) return found;
  const path = profileFilePath(dir, other, kind);
  const hosts = [deviceAndHostOf(id)!.host, deviceAndHostOf(other)!.host];
  return {
    found: 'other-host',
    path,
    id: other,
    note: `no baseline of ${id} here; ${path} is the same device recorded on another CPU (${hosts[1]}, this host ${hosts[0]})`,
  };
}

/**
 * The id today's rule gives the machine that the baseline beside a calibration named `name`
 * records (quick scale, else full), or null when there is none or it records no whole profile.
 */
function currentIdBeside(dir: string, name: string): string | null {
  const beside = [profileFilePath(dir, name, 'baseline'), profileFilePath(dir, name, 'full-baseline')].find((p) => existsSync(p));
  const value = beside ? parseJson(beside) : null;
  const profile = isObject(value) && isObject(value.profile) ? value.profile : null;
  const whole = profile && typeof profile.id === 'string' && typeof profile.backend === 'string' && isObject(profile.cpu) && typeof profile.os === 'string';
  return whole ? withCurrentId(profile as unknown as RecordedProfile).id : null;
}

/**
 * The calibration files in `dir` of `id`'s device on every host (`id`'s own among them): each
 * named by a profile of that device, or by the legacy id of one when the legacy baseline beside
 * it records that profile's CPU (as lookupProfileFile accepts it). Sorted by path.
 */
export function deviceCalibrationFiles(dir: string, id: string): string[] {
  const device = deviceAndHostOf(id)?.device;
  if (!device) return existsSync(profileFilePath(dir, id, 'calibration')) ? [profileFilePath(dir, id, 'calibration')] : [];
  const members = idsWithFile(dir, 'calibration').filter((other) => deviceAndHostOf(other)?.device === device);
  const legacy = idsWithFile(dir, 'calibration').filter((name) => {
    const current = legacyIdOf(name) ? null : currentIdBeside(dir, name);
    return current !== null && current !== name && deviceAndHostOf(current)?.device === device;
  });
  return [...members, ...legacy].map((name) => profileFilePath(dir, name, 'calibration')).sort();
}
