import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { dawnNoticeFilter, withoutDawnNotices } from './dawn-notices.js';

// The exact lines Dawn 0.6.2 (the `webgpu` package) printed on this machine's lavapipe.
const NOTICES =
  'Warning: maxDynamicUniformBuffersPerPipelineLayout artificially reduced from 1000000 to 16 to fit dynamic offset allocation limit.\n' +
  'Warning: maxDynamicStorageBuffersPerPipelineLayout artificially reduced from 1000000 to 16 to fit dynamic offset allocation limit.\n';

describe('withoutDawnNotices', () => {
  it('drops both notices and keeps every other line, in order', () => {
    expect(withoutDawnNotices(`before\n${NOTICES}after\n`)).toBe('before\nafter\n');
    expect(withoutDawnNotices(NOTICES)).toBe('');
  });

  it('keeps a warning it does not know', () => {
    const other = 'Warning: maxBufferSize artificially reduced from 1 to 2.\n';
    expect(withoutDawnNotices(other)).toBe(other);
  });
});

describe('dawnNoticeFilter', () => {
  it('forwards the rest of each chunk to its target', async () => {
    const seen: string[] = [];
    const target = new Writable({
      write(chunk: Buffer, _encoding, done) {
        seen.push(chunk.toString());
        done();
      },
    });
    const filter = dawnNoticeFilter(target);
    await new Promise<void>((done) => filter.write(NOTICES, () => done()));
    await new Promise<void>((done) => filter.write(`vitest: 1 failed\n${NOTICES}`, () => done()));
    expect(seen).toEqual(['vitest: 1 failed\n']);
  });
});
