/**
 * The flags and variable that say which browser a command launches and how long it waits for its
 * page, declared once for every command that launches one (perf, doctor): each adds its own
 * `--browser` line, saying what it runs there.
 */
import { DEFAULT_BROWSER_TIMEOUT_S } from '../runner/browser-timeout.js';
import type { EnvSpec, FlagSpec } from './command-spec.js';
import { UsageError } from './usage-error.js';

export const BROWSER_PATH_FLAG: FlagSpec = {
  name: 'browser-path',
  type: 'string',
  usage: '  --browser-path PATH     the Chromium to launch (default: GTP_BROWSER_PATH, else /usr/bin/chromium)',
};

export const BROWSER_TIMEOUT_FLAG: FlagSpec = {
  name: 'browser-timeout',
  type: 'string',
  usage: `  --browser-timeout S     stop a browser process whose page gave no result after S seconds
                          (default ${DEFAULT_BROWSER_TIMEOUT_S}: a hung page); its values are lost, nothing is written, exit 1`,
};

/** GTP_BROWSER_PATH's help line (`scope`: where it acts, as the command's --browser does). */
export const browserPathEnv = (scope?: EnvSpec['scope']): EnvSpec => ({
  usage: '  GTP_BROWSER_PATH        the Chromium --browser launches (as --browser-path)',
  ...(scope ? { scope } : {}),
});

/** --browser-timeout S: whole seconds from 1 to a day; null when not given (the default applies). */
export function browserTimeoutOf(text: string | null): number | null {
  if (text === null) return null;
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 86_400)
    throw new UsageError(`--browser-timeout ${text}: expected whole seconds from 1 to 86400 (default ${DEFAULT_BROWSER_TIMEOUT_S})`);
  return Number(text);
}
