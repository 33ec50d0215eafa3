import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lavapipeProfile, testRunRecord } from '../../test/support/run-record.js';
import {
  deviceCalibrationFiles,
  legacyMismatch,
  lookupBaselineFile,
  lookupProfileFile,
  otherHostIds,
  profileFilePath,
  withCurrentId,
} from './profile-files.js';
import { tempFolder } from '../../test/support/temp-folder.js';

// The machine this repository's CI measures on (lscpu: AMD EPYC, 2 cores), as the committed files record it.
const CI_ID = 'webgpu-lavapipe-amd-epyc-2c-x64';
const EPYC = { model: 'AMD EPYC', cores: 2 };

describe('profile files: the one lookup, with the legacy id as fallback', () => {
  it("finds the CI machine's committed baseline and calibration under its own id, its envelope under the legacy name", () => {
    expect(lookupProfileFile('baselines', CI_ID, 'baseline')).toEqual({ found: 'own', path: join('baselines', `${CI_ID}.json`) });
    expect(lookupProfileFile('baselines', CI_ID, 'calibration')).toEqual({ found: 'own', path: join('baselines', `${CI_ID}.calibration.json`) });
    for (const [kind, name] of [['envelope', 'webgpu-lavapipe-x64.doctor.json']] as const) {
      const found = lookupProfileFile('baselines', CI_ID, kind);
      expect(found.found, `${kind}: ${JSON.stringify(found)}`).toBe('legacy');
      expect(found.path).toBe(join('baselines', name));
    }
    expect(lookupProfileFile('baselines', CI_ID, 'full-baseline')).toEqual({ found: 'none', path: join('baselines', `${CI_ID}.full.json`) });
  });

  it('refuses a legacy-named file made on another CPU model or core count, saying which', () => {
    // (The Intel Xeon of this repository's CI has a baseline of its own: a CPU that has none.)
    const intel = lookupProfileFile('baselines', 'webgpu-lavapipe-intel-xeon-platinum-2c-x64', 'baseline');
    expect(intel).toMatchObject({ found: 'other-machine', legacyPath: join('baselines', 'webgpu-lavapipe-x64.json') });
    expect(intel.found === 'other-machine' && intel.reason).toMatch(
      /another machine's: it was made on AMD EPYC, 2 cores \(amd-epyc-2c\), this setup is intel-xeon-platinum-2c/,
    );
    const four = lookupProfileFile('baselines', 'webgpu-lavapipe-amd-epyc-4c-x64', 'envelope');
    expect(four.found === 'other-machine' && four.reason).toMatch(/AMD EPYC, 2 cores .*this setup is amd-epyc-4c/);
    // The calibration has no profile of its own: the legacy baseline beside it speaks for it.
    expect(lookupProfileFile('baselines', 'webgpu-lavapipe-amd-epyc-4c-x64', 'calibration').found).toBe('other-machine');
    // The example's committed baseline is named by the new id: found as its own, no fallback needed.
    expect(lookupProfileFile('examples/own-pipeline/baselines', CI_ID, 'baseline')).toEqual({
      found: 'own',
      path: join('examples/own-pipeline/baselines', `${CI_ID}.json`),
    });
    expect(lookupProfileFile('examples/own-pipeline/baselines', 'webgpu-lavapipe-intel-xeon-2c-x64', 'baseline').found).toBe('none');
  });

  describe('in a folder of its own', () => {
    const temp = tempFolder('gtp-profile-files-');

    it('takes the file of the id itself first, and never a legacy file that says no machine', async () => {
      await writeFile(profileFilePath(temp.path, 'webgpu-lavapipe-x64', 'calibration'), JSON.stringify({ pools: {} }));
      // No legacy baseline beside the calibration: nothing says whose it is.
      const alone = lookupProfileFile(temp.path, CI_ID, 'calibration');
      expect(alone.found === 'other-machine' && alone.reason).toMatch(
        /a calibration records no machine, and no webgpu-lavapipe-x64 baseline beside it says whose it is/,
      );
      await writeFile(profileFilePath(temp.path, 'webgpu-lavapipe-x64', 'baseline'), JSON.stringify(testRunRecord([], { profile: lavapipeProfile(EPYC) })));
      expect(lookupProfileFile(temp.path, CI_ID, 'calibration').found).toBe('legacy');
      await writeFile(profileFilePath(temp.path, CI_ID, 'calibration'), JSON.stringify({ pools: {} }));
      expect(lookupProfileFile(temp.path, CI_ID, 'calibration')).toEqual({ found: 'own', path: temp.at(`${CI_ID}.calibration.json`) });
      // GPU ids did not change: only their own file.
      expect(lookupProfileFile(temp.path, 'webgpu-nvidia-h200-x64', 'baseline').found).toBe('none');
    });
  });

  it('gives a legacy-recorded profile the id of the machine it records, and leaves every other as it is', () => {
    expect(withCurrentId(lavapipeProfile(EPYC)).id).toBe(CI_ID);
    expect(withCurrentId(lavapipeProfile({ model: 'Intel(R) Xeon(R) Processor', cores: 4 })).id).toBe('webgpu-lavapipe-intel-xeon-4c-x64');
    const current = lavapipeProfile(EPYC, CI_ID);
    expect(withCurrentId(current)).toBe(current);
    const fixture = testRunRecord([]).profile; // no adapter recorded: not a legacy record of a lavapipe run
    expect(withCurrentId(fixture)).toBe(fixture);
  });

  it('matches a legacy record on its profile and CPU', () => {
    expect(legacyMismatch(CI_ID, { id: 'webgpu-lavapipe-x64', cpu: { model: 'AMD EPYC', cores: 2 } })).toBeNull();
    expect(legacyMismatch(CI_ID, { id: 'webgpu-swiftshader-x64', cpu: EPYC })).toMatch(/records profile webgpu-swiftshader-x64, not webgpu-lavapipe-x64/);
    expect(legacyMismatch(CI_ID, { id: 'webgpu-lavapipe-x64', cpu: null })).toMatch(/records no CPU/);
  });

  it("finds the same device's baseline recorded on another CPU model when this host has none, never another device's", async () => {
    const XEON = 'webgpu-lavapipe-intel-xeon-platinum-2c-x64';
    // The committed one: an Intel runner of the CI's device is judged against the AMD EPYC baseline.
    expect(lookupBaselineFile('baselines', XEON, 'baseline')).toMatchObject({ found: 'other-host', id: CI_ID, path: join('baselines', `${CI_ID}.json`) });
    // Its own file first; another core count, adapter or a GPU has no other host.
    expect(lookupBaselineFile('baselines', CI_ID, 'baseline').found).toBe('own');
    expect(lookupBaselineFile('baselines', 'webgpu-lavapipe-intel-xeon-4c-x64', 'baseline').found).toBe('other-machine');
    expect(lookupBaselineFile('baselines', 'webgpu-swiftshader-intel-xeon-2c-x64', 'baseline').found).toBe('none');
    expect(lookupBaselineFile('baselines', 'wasm-intel-xeon-x64', 'baseline').found).toBe('none');
    // Not the calibration or envelope named by that id: only baselines of that kind.
    expect(otherHostIds('baselines', XEON, 'full-baseline')).toEqual([]);
    const dir = await mkdtemp(join(tmpdir(), 'gtp-hosts-'));
    try {
      for (const id of ['webgpu-lavapipe-zen-4-2c-x64', 'webgpu-lavapipe-amd-epyc-2c-x64']) await writeFile(profileFilePath(dir, id, 'baseline'), '{}');
      await writeFile(profileFilePath(dir, 'webgpu-lavapipe-arm-neoverse-2c-x64', 'calibration'), '{}');
      // Sorted: the same choice on every runner.
      expect(otherHostIds(dir, XEON, 'baseline')).toEqual(['webgpu-lavapipe-amd-epyc-2c-x64', 'webgpu-lavapipe-zen-4-2c-x64']);
      expect(deviceCalibrationFiles(dir, XEON)).toEqual([join(dir, 'webgpu-lavapipe-arm-neoverse-2c-x64.calibration.json')]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    // The committed calibrations of the CI device: its own and the legacy-named one its legacy baseline vouches for.
    expect(deviceCalibrationFiles('baselines', XEON)).toEqual([
      join('baselines', `${CI_ID}.calibration.json`),
      join('baselines', 'webgpu-lavapipe-x64.calibration.json'),
    ]);
  });
});
