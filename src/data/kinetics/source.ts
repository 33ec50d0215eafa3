import { DatasetLoader } from '../loader.js';
import { LOADER_SEED, type DatasetSource } from '../source.js';
import { collateClips } from './collate.js';
import type { KineticsDataset } from './reader.js';

// The reader loads when a run reads Kinetics, not with the command line that lists the source.
const loadKinetics: typeof import('./reader.js').loadKinetics = async (options) => (await import('./reader.js')).loadKinetics(options);

/** Kinetics sizes of one scale: clips per batch of `frames` frames scaled to height x width. */
export interface KineticsSizes {
  readonly batch: number;
  readonly frames: number;
  readonly height: number;
  readonly width: number;
  readonly rounds: number;
  readonly warmupRounds: number;
  readonly trainBatch: number;
}

const FIXTURE = 'fixtures/kinetics';

/** Kinetics (section 8): --kinetics-root, else the committed fixture; read by the kinetics scenarios. */
export const kineticsSource = {
  name: 'kinetics',
  flags: [{ name: 'kinetics-root', usage: '  --kinetics-root DIR     Kinetics layout <split>/<class>/<id>.mp4' }],
  given: (flag) => flag('kinetics-root'),
  fixture: FIXTURE,
  isFixture: (root, same) => same(root, FIXTURE),
  defaultDescription: 'the committed Kinetics fixture (fixtures/kinetics, train split: 4 videos, 2 classes)',
  scenarios: ['kinetics'],
  async describe(root, _scenarioIds, context) {
    const s = (await loadKinetics({ root, size: { height: 8, width: 8 }, videoTools: context.videoTools })).summary;
    return `Kinetics ${s.splitFolder} (${s.videos} videos, ${s.classes.length} classes, ${s.clips} clips of 32 frames)`;
  },
  // The article's 8 clips of 32 frames at both scales; quick scales the frames to 56x56 (a quick
  // clip batch is 2.4 MB of uint8), full to 112x112; quick trains on the first clip.
  sizes: {
    quick: { batch: 8, frames: 32, height: 56, width: 56, rounds: 8, warmupRounds: 2, trainBatch: 1 },
    full: { batch: 8, frames: 32, height: 112, width: 112, rounds: 40, warmupRounds: 5, trainBatch: 8 },
  },
  load: (root, { frames, height, width }, context) =>
    loadKinetics({ root: root ?? FIXTURE, framesPerClip: frames, size: { height, width }, videoTools: context.videoTools }),
  batches(dataset, { batch, frames, height, width }) {
    const loader = new DatasetLoader(dataset, collateClips, { batchSize: batch, shuffle: true, seed: LOADER_SEED, dropLast: false });
    return {
      dataset,
      loader,
      what: `${batch} Kinetics clips of ${frames} frames scaled to ${height}x${width} by ffmpeg, [${batch},${frames},${height},${width},3]`,
    };
  },
} satisfies DatasetSource<string, KineticsDataset, KineticsSizes>;
