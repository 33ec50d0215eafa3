import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fingerprintImageFolder } from '../data/image-folder/fingerprint.js';
import { imageFolderBatches, scanImageFolder } from '../data/image-folder/index.js';
import type { Question } from '../run-config.js';
import type { ScenarioFile } from './scenarios.js';

/**
 * The folder of the perf files that answer questions asked with flags (`--shape`,
 * `--image-folder`): questions/ at the package root, beside src/ here and beside dist/ in an
 * installed package, so a user's project runs them without copying anything.
 */
export const QUESTIONS_DIR = fileURLToPath(new URL('../../questions/', import.meta.url));

/** The perf file that answers `question`, by absolute path (it lives in the package, not the project). */
export function questionFile(question: Question): ScenarioFile {
  const id = question.kind === 'shape' ? 'shape' : 'image-folder';
  return { number: null, id, kind: 'perf', path: join(QUESTIONS_DIR, `${id}.perf.ts`) };
}

/**
 * What the question's data is, in words, for the run record: its one entry, since a question's
 * file reads nothing else. For an image folder the folder is listed and read up to its first
 * decodable image now, before any device starts, so a missing, empty or wholly undecodable folder
 * is a one-line error (ImageFolderError) at once; its fingerprint (fingerprint.ts: names and
 * contents) is in the words, so a baseline's same-data check sees a changed folder as other data.
 */
export async function describeQuestion(question: Question): Promise<Record<string, string>> {
  if (question.kind === 'shape') {
    return { synthetic: `seeded uniform random uint8 pixels of shape ${question.shapes.map((s) => `[${s.join(',')}]`).join(', ')} (channels last)` };
  }
  const layout = await scanImageFolder(question.root);
  // The pass decodes until its first image and throws when no file of the folder decodes.
  await imageFolderBatches(layout, {
    size: { height: 1, width: 1 },
    batchSize: 1,
    ...(question.maxPixels === undefined ? {} : { maxPixels: question.maxPixels }),
  }).next();
  const { height, width } = question.size;
  const fingerprint = await fingerprintImageFolder(layout);
  return {
    'image-folder': `ImageFolder ${question.root} (${layout.files.length} image files in ${layout.classes.length} classes, sha256 ${fingerprint}), ${question.fit} to ${height}x${width}, batch ${question.batchSize}`,
  };
}
