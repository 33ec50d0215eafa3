/**
 * Finding and running the ffmpeg and ffprobe programs (video decoding is delegated to them, as
 * torchvision delegates it to PyAV/FFmpeg). Debian's ffmpeg 5.1 package brings both.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { FROM_SOURCES } from '../../base/commands.js';
import { MissingToolError } from '../../base/missing-tool.js';

/**
 * How to get ffmpeg where the message is shown: `npm run setup:system` exists only in this
 * repository (commands.ts FROM_SOURCES); in the kit or a user's project, the system's package.
 */
export function installHint(sources: boolean = FROM_SOURCES): string {
  const ways = sources
    ? '`npm run setup:system` or `apt-get install ffmpeg` (Debian/Ubuntu)'
    : "`apt-get install ffmpeg` (Debian/Ubuntu) or your system's ffmpeg package";
  return `install it with ${ways}, or point FFMPEG_PATH at an ffmpeg binary`;
}

/** Thrown when ffmpeg or ffprobe cannot be started; the message says how to install them, `reason` why a run skips Kinetics. */
export class FfmpegNotFoundError extends MissingToolError {
  override readonly name = 'FfmpegNotFoundError';
}

/** The two programs, as paths or bare names looked up on PATH. */
export interface FfmpegTools {
  readonly ffmpeg: string;
  readonly ffprobe: string;
}

/**
 * Where the user put the programs: FFMPEG_PATH / FFPROBE_PATH, read by src/cli/args.ts (the one
 * reader of the environment) and carried in the RunConfig; null: not set, looked up on PATH.
 */
export interface FfmpegPaths {
  readonly ffmpeg: string | null;
  readonly ffprobe: string | null;
}

/** What a finished program left: exit code (null if killed), stdout bytes, stderr text. */
export interface ToolResult {
  readonly code: number | null;
  readonly stdout: Buffer;
  readonly stderr: string;
}

/** Runs `program args`, collecting its output; rejects only when it cannot be started. */
export function runTool(program: string, args: readonly string[]): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') }));
  });
}

/**
 * ffmpeg's complaints in one line: distinct lines, without the `[mov,mp4,... @ 0x55...]` prefixes
 * (addresses differ on every run), at most 3 of them.
 */
export function describeStderr(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.replace(/^\[[^\]]* @ 0x[0-9a-f]+\]\s*/, '').trim())
    .filter((line) => line !== '');
  const distinct = [...new Set(lines)];
  const text = distinct.slice(0, 3).join('; ') + (distinct.length > 3 ? `; (${distinct.length - 3} more)` : '');
  return text.length > 300 ? `${text.slice(0, 300)}...` : text;
}

/** The tool paths: FFMPEG_PATH / FFPROBE_PATH where given, else ffprobe beside ffmpeg, else PATH. */
export function toolPaths(paths: FfmpegPaths): FfmpegTools {
  const ffmpeg = paths.ffmpeg || 'ffmpeg';
  if (paths.ffprobe) return { ffmpeg, ffprobe: paths.ffprobe };
  // An ffmpeg given by path usually has its ffprobe in the same folder (static builds, apt).
  const sibling = join(dirname(ffmpeg), basename(ffmpeg).replace(/ffmpeg/i, 'ffprobe'));
  const ffprobe = paths.ffmpeg && sibling !== ffmpeg && existsSync(sibling) ? sibling : 'ffprobe';
  return { ffmpeg, ffprobe };
}

/** Throws FfmpegNotFoundError unless `program -version` runs and exits 0. */
async function checkRuns(program: string, what: string, variable: string): Promise<void> {
  let result: ToolResult;
  try {
    result = await runTool(program, ['-version']);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    // A bare name was looked up on PATH; a path came from the variable.
    const where = program === what ? `${variable} or PATH` : `${variable} ${program}`;
    throw new FfmpegNotFoundError(
      `${what} not found: cannot run "${program}" (${code}; ${variable} or PATH); ${installHint()}`,
      `${what} not found (${where}); install ffmpeg to measure it`,
    );
  }
  if (result.code !== 0) {
    throw new FfmpegNotFoundError(
      `"${program} -version" exited with ${result.code}: ${describeStderr(result.stderr)}; ${installHint()}`,
      `"${program} -version" exited with ${result.code} (${variable} or PATH); install ffmpeg to measure it`,
    );
  }
}

/** The ffmpeg and ffprobe to use, after checking that both start. */
export async function findFfmpeg(paths: FfmpegPaths): Promise<FfmpegTools> {
  const tools = toolPaths(paths);
  await checkRuns(tools.ffmpeg, 'ffmpeg', 'FFMPEG_PATH');
  await checkRuns(tools.ffprobe, 'ffprobe', 'FFPROBE_PATH');
  return tools;
}
