import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectFiles } from '../kit/contents.js';
import { SETUP_SCRIPT_HERE, vulkanInstallHint } from './vulkan-hint.js';

// Issue 34, item 5: the no-adapter hint names a command that exists where it is shown.
const ROOT = resolve(import.meta.dirname, '../..');

describe('vulkanInstallHint', () => {
  it('names `npm run setup:system` here, where package.json has that script and its file exists', () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['setup:system']).toBe('bash scripts/setup-system.sh');
    expect(SETUP_SCRIPT_HERE).toBe(true);
    expect(vulkanInstallHint()).toContain('`npm run setup:system` (as root) installs Mesa lavapipe');
  });

  it('names the Debian package, not an npm script, where the script is not shipped (the kit, an installed package)', () => {
    // The kit carries the sources but not scripts/setup-system.sh; the package ships dist/ and, of
    // scripts/, only the tensorflow set-up (named file by file, so no pattern takes the system one).
    expect(projectFiles(ROOT)).not.toContain('scripts/setup-system.sh');
    const files = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] }).files;
    expect(files.filter((f) => f.startsWith('scripts'))).toEqual(['scripts/setup-tensorflow.sh']);
    const elsewhere = vulkanInstallHint(false);
    expect(elsewhere).not.toContain('npm run');
    expect(elsewhere).toBe(
      'On Debian/Ubuntu without a GPU, `apt-get install mesa-vulkan-drivers` (as root; Mesa 25 or newer, on Debian 12 from bookworm-backports) installs Mesa lavapipe; on a GPU machine install its Vulkan driver (check with `vulkaninfo --summary`).',
    );
  });
});
