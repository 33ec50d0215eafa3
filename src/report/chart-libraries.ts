/**
 * vega and vega-lite draw the charts; they are optional peers of the package (27 MB a user who
 * wants no charts need not install), loaded the first time a chart is drawn. Without them every
 * report is still written, with this one line where the charts would be.
 */
export const CHART_PACKAGES = ['vega@5.33.1', 'vega-lite@5.9.3'] as const;

/** The one line said when a chart cannot be drawn. */
export const CHARTS_MISSING = `charts not drawn: they need the optional packages vega and vega-lite (npm install --save-dev ${CHART_PACKAGES.join(' ')})`;

export interface ChartLibraries {
  readonly vega: typeof import('vega');
  readonly vl: typeof import('vega-lite');
}

/** Whether `error` is Node's "package not installed" for the module `name` (not an error inside it). */
export function isMissingPackage(error: unknown, name: string): boolean {
  const e = error as NodeJS.ErrnoException;
  return (e?.code === 'ERR_MODULE_NOT_FOUND' || e?.code === 'MODULE_NOT_FOUND') && String(e.message).includes(`'${name}'`);
}

let loaded: Promise<ChartLibraries | null> | undefined;

/** vega and vega-lite, or null when either is not installed; loaded once per process. */
export function chartLibraries(): Promise<ChartLibraries | null> {
  loaded ??= Promise.all([import('vega'), import('vega-lite')]).then(
    ([vega, vl]) => ({ vega, vl }),
    (error: unknown) => {
      if (isMissingPackage(error, 'vega') || isMissingPackage(error, 'vega-lite')) return null;
      throw error;
    },
  );
  return loaded;
}
