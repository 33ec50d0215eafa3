import { Writable } from 'node:stream';

/**
 * The two lines Dawn's Vulkan backend prints to fd 2 from native code whenever it creates an
 * adapter (src/dawn/native/Limits.cpp, "artificially reduced ... to fit dynamic offset allocation
 * limit"): a clamp of limits that tfjs-backend-webgpu never uses (it binds no dynamic offsets),
 * so they tell a user nothing about the run.
 */
export const DAWN_LIMIT_NOTICE =
  /Warning: maxDynamic(?:Uniform|Storage)BuffersPerPipelineLayout artificially reduced from \d+ to \d+ to fit dynamic offset allocation limit\.\r?\n?/g;

/** `text` without Dawn's limit notices. */
export function withoutDawnNotices(text: string): string {
  return text.replace(DAWN_LIMIT_NOTICE, '');
}

/**
 * A stream that forwards everything to `target` but Dawn's limit notices. Native code writes
 * each notice in one write of under PIPE_BUF bytes, which a pipe delivers whole (POSIX write(2)),
 * so a chunk never splits one.
 */
export function dawnNoticeFilter(target: NodeJS.WritableStream = process.stderr): Writable {
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      const kept = withoutDawnNotices(chunk.toString());
      if (kept.length === 0) done();
      else target.write(kept, () => done());
    },
  });
}
