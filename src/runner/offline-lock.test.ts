import { describe, expect, it } from 'vitest';
import { withResolvedUrls } from './offline-lock.js';

const lock = (packages: Record<string, unknown>) => JSON.stringify({ name: 'p', lockfileVersion: 3, packages });

describe('withResolvedUrls', () => {
  it('names each registry tarball at the registry given, scoped and nested too; keeps what npm resolves itself', () => {
    const out = JSON.parse(
      withResolvedUrls(
        lock({
          '': { name: 'p', version: '1.0.0' },
          'node_modules/zod': { version: '4.6.7', integrity: 'sha512-a' },
          'node_modules/@tensorflow/tfjs': { version: '4.22.0', integrity: 'sha512-b' },
          'node_modules/a/node_modules/b': { version: '2.0.0', integrity: 'sha512-c' },
          'node_modules/kept': { version: '1.0.0', resolved: 'https://elsewhere/kept.tgz' },
          'node_modules/linked': { resolved: 'packages/linked', link: true },
        }),
        'http://127.0.0.1:9',
      ),
    ) as { packages: Record<string, { resolved?: string }> };
    expect(out.packages['']).toEqual({ name: 'p', version: '1.0.0' });
    expect(out.packages['node_modules/zod']!.resolved).toBe('http://127.0.0.1:9/zod/-/zod-4.6.7.tgz');
    expect(out.packages['node_modules/@tensorflow/tfjs']!.resolved).toBe('http://127.0.0.1:9/@tensorflow/tfjs/-/tfjs-4.22.0.tgz');
    expect(out.packages['node_modules/a/node_modules/b']!.resolved).toBe('http://127.0.0.1:9/b/-/b-2.0.0.tgz');
    expect(out.packages['node_modules/kept']!.resolved).toBe('https://elsewhere/kept.tgz');
    expect(out.packages['node_modules/linked']).toEqual({ resolved: 'packages/linked', link: true });
  });
});
