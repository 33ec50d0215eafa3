import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { BASELINE_DIR, readBaseline } from '../results/baseline.js';
import type { Scale } from '../run-config.js';

/**
 * Reads, before anything is measured, the baseline this run will be judged against: the
 * --baseline file, or (the profile is known only once the device starts) every baseline of
 * this scale in the baselines folder. A corrupt one stops the run now (RecordFileError, exit 2),
 * not after minutes of measuring.
 */
export async function checkBaselinesReadable(explicit: string | null, scale: Scale, dir = BASELINE_DIR): Promise<void> {
  if (explicit) {
    await readBaseline(explicit);
    return;
  }
  const names = await readdir(dir).catch(() => [] as string[]);
  // baselines/<profile>.json (quick) and <profile>.full.json (full), as baselinePathFor names them;
  // tolerances.json and <profile>.calibration.json / .doctor.json are other files.
  const pattern = scale === 'full' ? /^[^.]+\.full\.json$/ : /^[^.]+\.json$/;
  const ofScale = names.filter((n) => pattern.test(n) && n !== 'tolerances.json');
  for (const name of ofScale) await readBaseline(join(dir, name));
}
