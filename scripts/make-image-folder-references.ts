/**
 * Makes fixtures/image-folder-every-case: the source images (images/) and real PIL's and
 * torchvision's answers on the every-case folder (references/: torchvision.json, decoded/ and
 * resized-HxW/ PNGs). Needs Debian 12's /usr/bin/python3 with python3-pil 9.4.0 and
 * python3-torchvision 0.14.1 (apt-get install -y python3-pil python3-torchvision); CI has
 * neither, so the output is committed and the tests read it.
 *
 *   npm run fixtures:image-folder
 *
 * Steps: scripts/image-folder-references.py `images` writes the images; the every-case folder is
 * built from them in a temp folder (test/support/image-folder-every-case.ts, as the test builds
 * it); the same script's `answers` reads that folder with torchvision.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildEveryCaseFolder, EVERY_CASE_IMAGES, EVERY_CASE_REFERENCES, removeEveryCaseFolder } from '../test/support/image-folder-every-case.js';

const PYTHON = '/usr/bin/python3';
const SCRIPT = fileURLToPath(new URL('./image-folder-references.py', import.meta.url));

await rm(EVERY_CASE_IMAGES, { recursive: true, force: true });
await rm(EVERY_CASE_REFERENCES, { recursive: true, force: true });
execFileSync(PYTHON, [SCRIPT, 'images', EVERY_CASE_IMAGES], { stdio: 'inherit' });
const dir = await mkdtemp(join(tmpdir(), 'image-folder-every-case-'));
try {
  const root = await buildEveryCaseFolder(dir);
  execFileSync(PYTHON, [SCRIPT, 'answers', root, EVERY_CASE_IMAGES, EVERY_CASE_REFERENCES], { stdio: 'inherit' });
} finally {
  removeEveryCaseFolder(dir);
}
console.log(`wrote ${EVERY_CASE_IMAGES} and ${EVERY_CASE_REFERENCES}`);
