import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/** fontconfig's own folder of its config (FONTCONFIGDIR of a Linux build; sharp's bundled libvips names it too). */
const DEFAULT_CONFIG_DIR = '/etc/fonts';

/** The variables fontconfig reads to find its config (fontconfig(3), "ENVIRONMENT"). */
export interface FontconfigEnv {
  readonly FONTCONFIG_FILE?: string;
  readonly FONTCONFIG_PATH?: string;
  readonly FONTCONFIG_SYSROOT?: string;
}

/**
 * The files fontconfig may load as its config, in its order: FONTCONFIG_FILE (default
 * fonts.conf), absolute as given, else looked up in FONTCONFIG_PATH's folders and /etc/fonts;
 * each under FONTCONFIG_SYSROOT when set (fontconfig's FcConfigGetFilename).
 */
export function fontconfigCandidates(env: FontconfigEnv): string[] {
  const file = env.FONTCONFIG_FILE || 'fonts.conf';
  const dirs = [...(env.FONTCONFIG_PATH ?? '').split(':').filter(Boolean), DEFAULT_CONFIG_DIR];
  const paths = isAbsolute(file) ? [file] : dirs.map((d) => join(d, file));
  return env.FONTCONFIG_SYSROOT ? paths.map((p) => join(env.FONTCONFIG_SYSROOT!, p)) : paths;
}

/**
 * The smallest config fontconfig loads without complaint: the usual font folders (none need
 * exist; a machine without fonts draws the charts' text with none, as it would anyway) and a
 * cache in the user's XDG cache folder.
 */
export const MINIMAL_FONTS_CONF = `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<!-- Written by gpu-transfer-perf where no fontconfig config exists (a bare machine): charts are drawn without a "Fontconfig error" line. -->
<fontconfig>
  <dir>/usr/share/fonts</dir>
  <dir>/usr/local/share/fonts</dir>
  <dir prefix="xdg">fonts</dir>
  <cachedir prefix="xdg">fontconfig</cachedir>
</fontconfig>
`;

/** Whether fontconfig would find no config to load under `env` (so it would print its error line). */
export function lacksFontconfig(env: FontconfigEnv, exists: (path: string) => boolean = existsSync): boolean {
  return !fontconfigCandidates(env).some(exists);
}

let written: string | null = null;

/**
 * Before sharp draws a chart's SVG (librsvg lays its text out through fontconfig): on a machine
 * with no fontconfig config, fontconfig prints "Fontconfig error: Cannot load default config
 * file" on stderr in every process. There, FONTCONFIG_FILE is pointed at MINIMAL_FONTS_CONF in a
 * temp folder of this process (removed when it exits), and a FONTCONFIG_SYSROOT that holds no
 * config is dropped (fontconfig would look for that file under it). A machine whose config is
 * found is left as it is. The one write to the environment besides Dawn's (src/env-reads.test.ts):
 * set here, where sharp runs, for this process. Returns the file written, or null when none was needed.
 */
export function ensureFontconfig(): string | null {
  const env: FontconfigEnv = {
    FONTCONFIG_FILE: process.env.FONTCONFIG_FILE,
    FONTCONFIG_PATH: process.env.FONTCONFIG_PATH,
    FONTCONFIG_SYSROOT: process.env.FONTCONFIG_SYSROOT,
  };
  if (written !== null && env.FONTCONFIG_FILE === written) return written;
  if (!lacksFontconfig(env)) return null;
  const dir = mkdtempSync(join(tmpdir(), 'gtp-fontconfig-'));
  const file = join(dir, 'fonts.conf');
  writeFileSync(file, MINIMAL_FONTS_CONF);
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  process.env.FONTCONFIG_FILE = file;
  delete process.env.FONTCONFIG_SYSROOT;
  written = file;
  return file;
}
