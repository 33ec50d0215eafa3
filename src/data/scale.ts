/** How much a run measures: quick (the CI-sized default) or full; a data source sizes its data per scale. */
export const SCALES = ['quick', 'full'] as const;
export type Scale = (typeof SCALES)[number];
