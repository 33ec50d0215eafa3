import { afterEach, describe, expect, it, vi } from 'vitest';
import { EXIT_BROKEN_PIPE, stdoutClosedAtStart, streamFailed } from './standard-streams.js';

/** An exit that throws its code instead of ending the test's process. */
class Exited extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}
const exit = (code: number): never => {
  throw new Exited(code);
};
const errno = (code: string) => Object.assign(new Error(code), { code });

/** The code streamFailed ends with and the lines it wrote to stderr. */
function failed(stream: 'stdout' | 'stderr', error: unknown): { code: number; stderr: string } {
  let stderr = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  try {
    streamFailed(stream, error, exit);
  } catch (e) {
    if (e instanceof Exited) return { code: e.code, stderr };
    throw e;
  } finally {
    vi.restoreAllMocks();
  }
  throw new Error('streamFailed returned');
}

afterEach(() => vi.restoreAllMocks());

describe('streamFailed: a failed write to a standard stream (issue 41, item 2)', () => {
  it.each(['EPIPE', 'ECONNRESET'])('%s on stdout or stderr: the reader went away, exit 141 (SIGPIPE) and nothing printed', (code) => {
    expect(failed('stdout', errno(code))).toEqual({ code: EXIT_BROKEN_PIPE, stderr: '' });
    expect(failed('stderr', errno(code))).toEqual({ code: 141, stderr: '' });
  });

  it('ENOSPC on stdout (> /dev/full): one line on stderr naming the cause, exit 2', () => {
    const { code, stderr } = failed('stdout', errno('ENOSPC'));
    expect(code).toBe(2);
    expect(stderr).toBe('error: cannot write to stdout (ENOSPC: no space left on its device); send the output somewhere that can be written\n');
  });

  it('EBADF on stdout: one line, exit 2; a failed stderr prints nothing (there is nowhere to)', () => {
    expect(failed('stdout', errno('EBADF'))).toEqual({ code: 2, stderr: expect.stringMatching(/^error: cannot write to stdout \(EBADF\)[^\n]*\n$/) });
    expect(failed('stderr', errno('EBADF'))).toEqual({ code: 2, stderr: '' });
  });
});

describe('stdoutClosedAtStart: /dev/null opened read-write by Node on a closed fd 1', () => {
  it('reads the link and the access mode of the fd', async () => {
    const { mkdtemp, rm, symlink, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'gtp-fd-'));
    try {
      await symlink('/dev/null', join(dir, 'null'));
      await symlink('/tmp/out.json', join(dir, 'file'));
      const info = async (flags: string) => {
        await writeFile(join(dir, 'fdinfo'), `pos:\t0\nflags:\t${flags}\nmnt_id:\t23\n`);
        return join(dir, 'fdinfo');
      };
      // As Node opens it for a closed fd (O_RDWR | O_CLOEXEC | O_LARGEFILE), and as `> /dev/null` does (O_WRONLY).
      expect(stdoutClosedAtStart(await info('02100002'), join(dir, 'null'))).toBe(true);
      expect(stdoutClosedAtStart(await info('0100001'), join(dir, 'null'))).toBe(false);
      expect(stdoutClosedAtStart(await info('02100002'), join(dir, 'file'))).toBe(false);
      expect(stdoutClosedAtStart(join(dir, 'missing'), join(dir, 'null'))).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
