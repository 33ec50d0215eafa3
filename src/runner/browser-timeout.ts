/** What a browser process is stopped after when --browser-timeout does not say (seconds): ten minutes, several times a whole perf/browser/ process on the 2-core CI machine. */
export const DEFAULT_BROWSER_TIMEOUT_S = 600;
