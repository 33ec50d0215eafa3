import { readFileSync, readlinkSync } from 'node:fs';

/**
 * The standard streams as Unix tools treat them, for every command (issue 41, item 2):
 *   - a reader that stops early (`gtp compare R | head -1`) closes the pipe: the command ends
 *     quietly with 141, the status a SIGPIPE gives (128 + 13), as `yes | head -1` does; no stack;
 *   - a stdout that cannot be written (`> /dev/full`: ENOSPC; EBADF) is one line on stderr and
 *     exit 2: the output did not reach its reader, and nothing else was written in its place.
 * Installed once, by the CLI's entry (src/cli/main.ts); an output named `-` that fails reports
 * through the same function (src/results/output-guard.ts).
 */

/** The exit status of a process that a SIGPIPE ended, as a shell reports it (128 + 13). */
export const EXIT_BROKEN_PIPE = 141;
/** Bad input or an output that cannot be written (src/results/exit.ts's badInput; base imports nothing of the harness). */
const EXIT_CANNOT_WRITE = 2;

/** How a stream failure ends the process: a test passes its own to see the code. */
export type StreamExit = (code: number) => never;

/** The reader went away: a pipe closed (EPIPE), or, for a socket, reset (ECONNRESET). */
const readerGone = (code: string | undefined) => code === 'EPIPE' || code === 'ECONNRESET';

/**
 * Ends the process for a failed write to `stream`: quietly with 141 when its reader went away,
 * else one line on stderr (when stderr is not the stream that failed) and exit 2.
 */
export function streamFailed(stream: 'stdout' | 'stderr', error: unknown, exit: StreamExit = process.exit): never {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (readerGone(code)) exit(EXIT_BROKEN_PIPE);
  if (stream === 'stdout') {
    const why = code ?? String(error);
    // Straight to the file descriptor: stderr's stream may hold other lines still queued, and the process ends now.
    try {
      process.stderr.write(
        `error: cannot write to stdout (${why}${code === 'ENOSPC' ? ': no space left on its device' : ''}); send the output somewhere that can be written\n`,
      );
    } catch {
      // stderr is gone too: the exit code alone says it.
    }
  }
  exit(EXIT_CANNOT_WRITE);
}

/**
 * Whether this process started with stdout closed (`gtp ... >&-`). Node opens /dev/null read-write
 * on a standard fd that is closed at start (src/node.cc, PlatformInit), so writes to it succeed
 * and go nowhere; a shell's `> /dev/null` opens it write-only. Read from Linux's /proc (false
 * elsewhere, and for `1<> /dev/null`, which cannot be told apart and counts as closed).
 */
export function stdoutClosedAtStart(fdinfo = '/proc/self/fdinfo/1', fd = '/proc/self/fd/1'): boolean {
  try {
    if (readlinkSync(fd) !== '/dev/null') return false;
    const flags = /^flags:\s+([0-7]+)$/m.exec(readFileSync(fdinfo, 'utf8'));
    // O_ACCMODE (3) is O_RDWR (2): /dev/null as Node opens it for a closed fd.
    return flags !== null && (Number.parseInt(flags[1]!, 8) & 3) === 2;
  } catch {
    return false;
  }
}

let installed = false;

/**
 * Listens for write errors on stdout and stderr for the life of the process, so that a closed
 * pipe or a full device ends the command as streamFailed says, never as an unhandled 'error'
 * event (a stack and exit 1, which `compare` uses for "regressed"). Idempotent.
 */
export function handleStandardStreams(exit: StreamExit = process.exit): void {
  if (installed) return;
  installed = true;
  process.stdout.on('error', (error) => streamFailed('stdout', error, exit));
  process.stderr.on('error', (error) => streamFailed('stderr', error, exit));
}
