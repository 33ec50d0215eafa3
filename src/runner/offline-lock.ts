/**
 * npm installs from its cache alone when each package of the lockfile names its tarball. A
 * lockfile committed without `resolved` URLs (this repository's: no registry host is written
 * into it) makes `npm ci` ask the registry for every package's metadata first, even with every
 * tarball in the cache; with `resolved` set, npm finds each tarball in its cache by the lockfile's
 * integrity hash and asks nothing (`--prefer-offline`, `--offline`). Any registry's URL serves:
 * the cache is keyed by the integrity, not the URL.
 */

interface LockEntry {
  readonly version?: string;
  readonly resolved?: string;
  readonly link?: boolean;
}

/** `lockText` (a package-lock.json, v2 or v3) with a tarball URL at `registry` for each registry package that names none. */
export function withResolvedUrls(lockText: string, registry: string): string {
  const lock = JSON.parse(lockText) as { packages?: Record<string, LockEntry> };
  const base = registry.replace(/\/?$/, '/');
  const packages: Record<string, LockEntry> = {};
  for (const [path, entry] of Object.entries(lock.packages ?? {})) {
    // The root, linked folders, and entries npm resolves itself (git, file:) keep what they have.
    if (path === '' || entry.resolved || entry.link || !entry.version || !path.includes('node_modules/')) {
      packages[path] = entry;
      continue;
    }
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    // The registry's tarball path: <name>/-/<name without scope>-<version>.tgz (npm's registry API).
    packages[path] = { ...entry, resolved: `${base}${name}/-/${name.split('/').pop()}-${entry.version}.tgz` };
  }
  return `${JSON.stringify({ ...lock, packages }, null, 2)}\n`;
}
