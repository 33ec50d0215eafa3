import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FROM_SOURCES } from '../base/commands.js';

/**
 * Whether `npm run setup:system` exists where this runs: this repository's sources with their
 * scripts/setup-system.sh (package.json's `setup:system`). The kit runs the sources too, but
 * without that script; an installed package (dist/) has neither.
 */
export const SETUP_SCRIPT_HERE: boolean = FROM_SOURCES && existsSync(fileURLToPath(new URL('../../scripts/setup-system.sh', import.meta.url)));

/**
 * What installs a Vulkan driver for Dawn, said as it can be done where this runs: the
 * repository's npm script where it exists, else the Debian/Ubuntu package it installs (in the kit
 * and in a user's project). Dawn rejects Mesa 22.3 (Debian 12's own); 25.x works
 * (scripts/setup-system.sh takes it from bookworm-backports).
 */
export function vulkanInstallHint(setupScript: boolean = SETUP_SCRIPT_HERE): string {
  const lavapipe = setupScript
    ? '`npm run setup:system` (as root) installs Mesa lavapipe'
    : '`apt-get install mesa-vulkan-drivers` (as root; Mesa 25 or newer, on Debian 12 from bookworm-backports) installs Mesa lavapipe';
  return `On Debian/Ubuntu without a GPU, ${lavapipe}; on a GPU machine install its Vulkan driver (check with \`vulkaninfo --summary\`).`;
}
