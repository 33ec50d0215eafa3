import { EXIT } from '../results/exit.js';
import { processCountProblem } from '../results/process-verdict.js';
import { noBaselineMessage } from '../results/baseline.js';
import { writeExports } from '../report/write-exports.js';
import { exportOutputs, exportTargets } from '../report/exporters.js';
import { IMAGE_RESAMPLES, PIL_MAX_IMAGE_PIXELS } from '../data/image-folder/options.js';
import { parseShape, parseSize, ShapeParseError } from '../data/shape.js';
import { type Question, type QuestionNormalization, type RunConfig, sourceContext } from '../run-config.js';
import { besideRecord, FileWriteError, RESULTS_DIR } from '../results/storage.js';
import { skippedLine } from '../results/schema.js';
import { appendedLine, appendToHistory, HistoryRefusedError, historyRefusal } from '../history/store.js';
import { gitState } from '../runner/git.js';
import { isIdentityChannels } from '../transfer/normalization.js';
import { WIRE_DTYPES, type WireDtype } from '../transfer/wire-dtypes.js';
import type { BackendArgs, CommandSpec, CompareArgs, DataArgs, ParsedLine } from './command-spec.js';
import type { FfmpegPaths } from '../data/kinetics/ffmpeg.js';
import { UsageError } from './usage-error.js';
import { checkBaselinesReadable } from './baselines-check.js';
import { checkJobSummary, checkOutputs, checkWritableDir } from '../results/output-guard.js';
import { commandLine } from '../base/commands.js';
import { outputStream } from '../base/regular-file.js';

/** What `perf` is asked. */
export type PerfArgs = {
  readonly command: 'perf';
  readonly out: string | null;
  readonly scenarios: readonly string[];
  readonly processes: number;
  /** --history DIR: also append the run record to DIR/<profile>/ (null: not). */
  readonly history: string | null;
  /** A question asked with flags (--shape, --image-folder) instead of perf files; null for none. */
  readonly question: Question | null;
  /** The folder of the project's perf files (default perf/). */
  readonly dir: string | null;
  /** --verbose: every table on the console, and vitest's per-test lines while it runs. */
  readonly verbose: boolean;
  /** Where ffmpeg and ffprobe are (FFMPEG_PATH / FFPROBE_PATH). */
  readonly videoTools: FfmpegPaths;
} & DataArgs &
  BackendArgs &
  CompareArgs;

/** The question's data, read up front; a folder it cannot use is the user's to fix (exit 2). */
async function readQuestion(question: Question): Promise<Record<string, string>> {
  const { describeQuestion } = await import('../runner/questions.js');
  const { RunInputError } = await import('../runner/perf.js');
  const { ImageFolderError } = await import('../data/image-folder/index.js');
  try {
    return await describeQuestion(question);
  } catch (error) {
    if (error instanceof ImageFolderError) throw new RunInputError(error.message);
    throw error;
  }
}

/**
 * `npm run perf`: runs the selected perf/ specs and timed scenarios, compares the run with its
 * profile's baseline (when there is one), writes the run record, prints the report.
 */
export async function perfCommand(args: PerfArgs): Promise<number> {
  const { checkBackendChoice, RunInputError, runPerfSuite, scenarioFiles } = await import('../runner/perf.js');
  const { questionFile } = await import('../runner/questions.js');
  // Everything the user can get wrong is checked before a device starts.
  const tooFew = processCountProblem(args.processes);
  if (tooFew) throw new UsageError(tooFew);
  if (args.question && (args.scenarios.length > 0 || args.dir)) {
    throw new UsageError(`--${args.question.kind} asks its own question: it does not go with --scenario or --dir`);
  }
  // The record is a file: the HTML report and the charts are written beside it, and later commands read it.
  if (args.out && outputStream(args.out)) {
    throw new UsageError(
      `--out ${args.out}: the run record must be a file (the HTML report and charts go beside it); name a file, and use --json - for the verdicts on stdout`,
    );
  }
  const asked = args.question ? [questionFile(args.question)] : scenarioFiles(args.scenarios, args.dir ?? undefined);
  checkBackendChoice(args.backend);
  const { data } = args;
  // A scenario whose tool is missing (ffmpeg) is skipped with its reason unless named (preflight.ts); the rest run.
  const { preflightScenarios } = await import('../runner/preflight.js');
  const { datasets, files, skipped } = args.question
    ? { datasets: await readQuestion(args.question), files: asked, skipped: [] }
    : await preflightScenarios(data, asked, sourceContext(args), args.scenarios.length > 0);
  for (const s of skipped) console.log(`[gpu-transfer-perf] ${skippedLine(s)}`);
  if (files.length === 0)
    throw new RunInputError(
      skipped.length > 0
        ? `nothing to measure: every scenario was skipped (${skipped.map(skippedLine).join('; ')})`
        : `nothing to measure: ${args.dir ? `--dir ${args.dir}` : 'perf/'} holds no perf files ([NN-]name.perf.ts or [NN-]name.spec.ts); name the folder that holds them`,
    );
  // Every file this run will write or read at the end is checked now, before the device starts.
  const out = args.out;
  if (out) {
    const beside = (extension: string, kind: string) => ({ path: besideRecord(out, extension), flag: `the ${kind} beside --out` });
    await checkOutputs([{ path: out, kind: 'run record', flag: '--out' }, ...exportOutputs(exportTargets('perf', args.exports, beside))], args);
  } else {
    await checkWritableDir(RESULTS_DIR, 'the run record');
    await checkOutputs(exportOutputs(exportTargets('perf', args.exports, null)), args);
  }
  await checkJobSummary(args.jobSummary, args);
  if (args.history) {
    await checkWritableDir(args.history, '--history');
    const refusal = historyRefusal({ git: gitState() });
    if (refusal) throw new HistoryRefusedError(`--history ${args.history}: ${refusal}, or drop --history`);
  }
  await checkBaselinesReadable(args.baseline, args.scale, args.baselines);
  // A run with skipped scenarios lists the files it ran; `skipped` says why the others are absent.
  const config = { ...perfRunConfig(args, files, datasets), ...(skipped.length > 0 ? { selection: files.map((f) => f.path) } : {}) };

  const outcome = await runPerfSuite(files, config, { ...args, skipped });
  if (!outcome) {
    console.error('\nNo run record: no scenario reached a backend (see the errors above).');
    return EXIT.regression;
  }
  if (outcome.fallbackFrom) {
    console.error(`\nerror: could not write the run record to ${outcome.fallbackFrom} (${outcome.writeError}); it was kept at ${outcome.recordPath}`);
  }
  const input = { record: outcome.record, recordPath: outcome.recordPath, comparison: outcome.comparison };
  // By default one screen; --verbose every table (the HTML report and the run record keep them all).
  const { consoleExporter, verboseConsoleExporter } = await import('../report/console.js');
  const exporter = args.verbose ? verboseConsoleExporter : consoleExporter;
  console.log(`\n${await exporter.render(input, { color: process.stdout.isTTY === true })}`);
  const html = besideRecord(outcome.recordPath, '.html');
  let writeFailed = false;
  try {
    const beside = (extension: string) => ({ path: besideRecord(outcome.recordPath, extension), flag: 'beside the run record' });
    await writeExports(input, 'perf', exportTargets('perf', args.exports, beside), args.jobSummary);
    const { writeCharts } = await import('../report/charts.js');
    const charts = await writeCharts(outcome.record, outcome.recordPath);
    const chartList = args.verbose && charts.written.length > 0 ? `; charts: ${charts.written.join(', ')}` : '';
    console.log(`Report: ${html}${args.verbose ? chartList : ' (every table and chart; --verbose prints the tables here)'}`);
    if (charts.unavailable) console.log(`note: ${charts.unavailable}`);
    for (const path of charts.skipped) console.log(`note: ${path} holds a file that is not a chart; it was left alone (that chart is in the HTML report).`);
  } catch (error) {
    // Disk full or the folder gone after the run: the record is written, say where, and fail.
    if (!(error instanceof FileWriteError)) throw error;
    console.error(
      `\nerror: ${error.message}; the run record is at ${outcome.recordPath} (rebuild the report with: ${commandLine('report', outcome.recordPath)})`,
    );
    writeFailed = true;
  }

  // --history DIR: the run's record also goes to DIR/<profile>/<commit>-<time>.json (never over a file).
  let historyFailed = false;
  if (args.history) {
    try {
      const appended = await appendToHistory(args.history, outcome.record);
      console.log(appendedLine(appended));
    } catch (error) {
      if (!(error instanceof FileWriteError)) throw error;
      console.error(`\nerror: ${error.message}; the run record is at ${outcome.recordPath} (not in the history)`);
      historyFailed = true;
    }
  }
  const scenarioCode = outcome.record.errors.length > 0 || outcome.fallbackFrom || writeFailed || historyFailed ? EXIT.regression : EXIT.pass;
  if (!outcome.comparison) console.log(`\n${noBaselineMessage(outcome.record, outcome.baselinePath, outcome.recordPath)}`);
  const code = outcome.comparison
    ? Math.max(scenarioCode, outcome.comparison.exitCode)
    : // CI sets PERF_REQUIRE_BASELINE=1: a run that compared nothing must not pass there.
      args.requireBaseline
      ? Math.max(scenarioCode, EXIT.noBaseline)
      : scenarioCode;
  // The verdict line says the exit code; said here when there is none, or it differs (a file not written).
  if (code !== outcome.comparison?.exitCode) console.log(`Exit ${code}.`);
  return code;
}

/**
 * The RunConfig of a perf command line (the perf command's and the measure host's): its
 * backend, scale and data; the selection when scenarios or a question were named.
 */
export function perfRunConfig(args: PerfArgs, files: ReadonlyArray<{ readonly path: string }>, datasets: Record<string, string>): RunConfig {
  return {
    backend: args.backend,
    requireBackend: args.requireBackend,
    scale: args.scale,
    data: args.data,
    selection: args.scenarios.length > 0 || args.question ? files.map((f) => f.path) : null,
    datasets,
    ...(args.question ? { question: args.question } : {}),
    videoTools: args.videoTools,
  };
}

/** A comma-separated list: '8,16,32' -> ['8', '16', '32'], with no empty items. */
function list(flag: string, text: string): string[] {
  const items = text.split(',').map((v) => v.trim());
  if (items.some((v) => v === ''))
    throw new UsageError(`--${flag} ${text}: an empty item; write e.g. --${flag} ${flag === 'dtype' ? 'uint8,float32' : '8,16,32'}`);
  return items;
}

/** The largest --batch value: a batch of 4096 images is far past any input pipeline's. */
const MAX_BATCH = 4096;

/** --batch values: whole numbers from 1 to MAX_BATCH, each once. */
function batches(text: string): number[] {
  const values = list('batch', text).map((v) => {
    if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > MAX_BATCH)
      throw new UsageError(`--batch ${text}: '${v}' is not a whole number from 1 to ${MAX_BATCH}`);
    return Number(v);
  });
  if (new Set(values).size !== values.length) throw new UsageError(`--batch ${text}: a batch size is repeated`);
  return values;
}

/** --max-pixels N: a whole number of pixels, at least 1. */
function pixelBudget(text: string): number {
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1)
    throw new UsageError(`--max-pixels ${text}: expected a whole number of pixels >= 1 (default ${PIL_MAX_IMAGE_PIXELS}, PIL's MAX_IMAGE_PIXELS)`);
  return value;
}

/** torchvision's ImageNet constants times 255, as the help states them (IMAGENET_NORMALIZATION's values). */
const IMAGENET_255 = '123.675,116.28,103.53 and 58.395,57.12,57.375';

/**
 * --mean R,G,B and --std R,G,B (both or neither): three finite numbers each on the 0-255 scale,
 * every std positive (0 divides by zero; a negative one flips the sign). Mean 0,0,0 with std
 * 1,1,1 is no normalization, asked for. Other values all within [0, 1] are torchvision's 0-1
 * scale, not pixels: refused with the conversion, since on 0-255 pixels they would normalize nothing.
 */
function normalizationFlags(mean: string | null, std: string | null, channels: number): QuestionNormalization | undefined {
  if (mean === null && std === null) return undefined;
  if (mean === null || std === null) throw new UsageError(`--mean and --std go together (R,G,B each, 0-255 scale; ImageNet's: ${IMAGENET_255})`);
  const values = (flag: string, text: string): number[] => {
    const items = text.split(',').map((v) => v.trim());
    if (items.length !== 3) throw new UsageError(`--${flag} ${text}: ${items.length} values; give 3, one per channel R,G,B`);
    return items.map((v) => {
      const value = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(v) ? Number(v) : Number.NaN;
      if (!Number.isFinite(value)) throw new UsageError(`--${flag} ${text}: '${v}' is not a number`);
      return value;
    });
  };
  const n = { mean: values('mean', mean), std: values('std', std) };
  if (n.std.some((s) => s === 0)) throw new UsageError(`--std ${std}: a std of 0 divides by zero`);
  if (n.std.some((s) => s < 0)) throw new UsageError(`--std ${std}: a std must be positive (a negative one flips the channel's sign)`);
  // Mean 0 and std 1 exactly: no normalization, asked for (the pixel values as float32).
  if (isIdentityChannels(n)) return n;
  if ([...n.mean, ...n.std].every((v) => Math.abs(v) <= 1)) {
    const times255 = (xs: number[]) => xs.map((v) => Number((v * 255).toPrecision(6))).join(',');
    throw new UsageError(
      `--mean ${mean} --std ${std}: these look like torchvision's 0-1 scale; pixels here are 0-255: --mean ${times255(n.mean)} --std ${times255(n.std)} (no normalization: --mean 0,0,0 --std 1,1,1)`,
    );
  }
  if (channels !== 3) throw new UsageError(`--mean and --std give R,G,B; the shape has ${channels} channel${channels === 1 ? '' : 's'}`);
  return n;
}

/** Where each question flag works, named as the combination to type (a flag given without its question is told this). */
const QUESTION_FLAG_GOES_WITH = {
  batch: 'goes with --shape NxHxWxC (batch sizes) or --image-folder DIR (one batch size)',
  dtype: 'goes with --shape NxHxWxC only (e.g. --shape 16x224x224x3 --dtype uint8,float16); an image folder is measured as uint8 pixels',
  size: 'goes with --image-folder DIR only (a --shape has its height and width)',
  fit: 'goes with --image-folder DIR only (a --shape has its height and width)',
  resample: 'goes with --image-folder DIR only (a --shape is not resized)',
  'max-pixels': 'goes with --image-folder DIR only (e.g. --image-folder photos --max-pixels 50000000); a --shape has no images to skip',
  mean: 'goes with --shape NxHxWxC (3 channels) or --image-folder DIR',
  std: 'goes with --shape NxHxWxC (3 channels) or --image-folder DIR',
} as const;

/**
 * The question asked with --shape or --image-folder (and their --batch, --dtype, --size, --fit,
 * --mean, --std), or null; a flag of one kind with the other, or with neither, is a usage error.
 */
function questionOf(line: ParsedLine): Question | null {
  const str = line.str;
  const shape = str('shape');
  const folder = str('image-folder');
  const batch = str('batch');
  const dtype = str('dtype');
  const size = str('size');
  const fit = str('fit');
  const resample = str('resample');
  const maxPixels = str('max-pixels');
  const [mean, std] = [str('mean'), str('std')];
  try {
    if (shape !== null && folder !== null) throw new UsageError('--shape and --image-folder are two questions: ask one per run');
    if (shape !== null) {
      if (size !== null || fit !== null || resample !== null || maxPixels !== null)
        throw new UsageError(
          `--${size !== null ? 'size' : fit !== null ? 'fit' : resample !== null ? 'resample' : 'max-pixels'} goes with --image-folder DIR only, not with --shape (a --shape has its height and width and no images to skip or resize)`,
        );
      const [n, h, w, c] = parseShape(shape, 4);
      // Each batch size checked as a whole shape: float32 copies (4 bytes a value) are made of it.
      const shapes = (batch === null ? [n] : batches(batch)).map((b) => parseShape(`${b}x${h}x${w}x${c}`, 4));
      const dtypes = dtype === null ? [] : list('dtype', dtype);
      const unknown = dtypes.find((d) => !(WIRE_DTYPES as readonly string[]).includes(d));
      if (unknown !== undefined) throw new UsageError(`--dtype ${dtype}: '${unknown}' is not one of ${WIRE_DTYPES.join(',')}`);
      if (new Set(dtypes).size !== dtypes.length) throw new UsageError(`--dtype ${dtype}: a type is repeated`);
      const normalization = normalizationFlags(mean, std, c);
      return { kind: 'shape', shapes, dtypes: dtypes as WireDtype[], ...(normalization ? { normalization } : {}) };
    }
    if (folder !== null) {
      if (dtype !== null) throw new UsageError(`--dtype ${QUESTION_FLAG_GOES_WITH.dtype}`);
      const normalization = normalizationFlags(mean, std, 3); // decoded as RGB
      const sizes = batch === null ? [16] : batches(batch);
      if (sizes.length > 1) throw new UsageError(`--batch ${batch}: an image folder is measured at one batch size`);
      return {
        kind: 'image-folder',
        root: folder,
        size: parseSize(size ?? '224x224'),
        fit: line.choice('--fit', fit, ['resize', 'letterbox'] as const, 'resize'),
        batchSize: sizes[0]!,
        resample: line.choice('--resample', resample, IMAGE_RESAMPLES, 'antialias'),
        maxPixels: maxPixels === null ? PIL_MAX_IMAGE_PIXELS : pixelBudget(maxPixels),
        ...(normalization ? { normalization } : {}),
      };
    }
  } catch (error) {
    if (error instanceof ShapeParseError) throw new UsageError(error.message);
    throw error;
  }
  const stray = (['batch', 'dtype', 'size', 'fit', 'resample', 'max-pixels', 'mean', 'std'] as const).find(
    (_, i) => [batch, dtype, size, fit, resample, maxPixels, mean, std][i] !== null,
  );
  if (stray) throw new UsageError(`--${stray} ${QUESTION_FLAG_GOES_WITH[stray]}`);
  return null;
}

/** `gtp perf` (`npm run perf` here): its flags, help, parse step and runner. */
export const perfSpec: CommandSpec<PerfArgs> = {
  name: 'perf',
  summary: 'run the perf files, write the run record and report, judge it',
  synopsis: '[options]',
  about: [
    'Runs the scenarios (the perf files of perf/, or --dir), writes a run record and its HTML report,',
    "compares it with this profile's baseline, and prints one line per scenario and what failed.",
  ],
  options: [
    'run',
    { name: 'out', type: 'string', usage: '  --out FILE              run record path (default: results/<time>-<profile>.json)' },
    {
      name: 'scenario',
      type: 'string',
      multiple: true,
      usage: `  --scenario ID           only this scenario; repeatable: an id (speedup), a section number
                          (6) or a file name (06-speedup.bench.ts)`,
    },
    {
      name: 'processes',
      type: 'string',
      usage: `  --processes K           run the scenarios in K separate processes, one after another; ratio
                          and time metrics keep one value per process (default 1; else at
                          least 6, the fewest whose values can decide against a baseline)`,
    },
    { name: 'dir', type: 'string', usage: "  --dir DIR               run the perf files of DIR instead of perf/ (your own project's)" },
    {
      name: 'verbose',
      type: 'boolean',
      usage: `  --verbose               print every table (and vitest's per-test lines while it runs);
                          by default one line per scenario and only what failed`,
    },
    {
      name: 'history',
      type: 'string',
      usage: '  --history DIR           also append the run record to DIR/<profile>/ (the history command reads it)',
    },
    'compare',
    'force',
  ],
  sections: [
    {
      heading: 'Your own sizes, no code (instead of the perf files)',
      flags: [
        {
          name: 'shape',
          type: 'string',
          usage: `  --shape NxHxWxC         both strategies at this shape of seeded random pixels, e.g.
                          16x512x512x3: bytes, speedup, stages and the device limit`,
        },
        {
          name: 'batch',
          type: 'string',
          usage: `  --batch N[,N...]        with --shape: these batch sizes instead of N (with --image-folder:
                          the batch size, default 16)`,
        },
        { name: 'dtype', type: 'string', usage: '  --dtype T[,T...]        with --shape: also compare these wire types (uint8,int8,float16,float32)' },
        {
          name: 'image-folder',
          type: 'string',
          usage: `  --image-folder DIR      a folder in torchvision's ImageFolder layout DIR/<class>/<image>,
                          decoded by sharp, end to end as the COCO scenario`,
        },
        { name: 'size', type: 'string', usage: '  --size HxW              with --image-folder: the size images are fitted to (default 224x224)' },
        { name: 'fit', type: 'string', usage: '  --fit resize|letterbox  with --image-folder: stretch, or keep the aspect and pad (default resize)' },
        {
          name: 'resample',
          type: 'string',
          usage: `  --resample antialias|bilinear-no-antialias
                          with --image-folder: torchvision's Resize on a PIL image (PIL bilinear
                          with antialias, the default), or plain bilinear without antialias`,
        },
        {
          name: 'max-pixels',
          type: 'string',
          usage: `  --max-pixels N          with --image-folder: skip images of more pixels, read from the header
                          before decoding (default 89478485, PIL's MAX_IMAGE_PIXELS)`,
        },
        {
          name: 'mean',
          type: 'string',
          usage: `  --mean R,G,B --std R,G,B
                          with --shape (3 channels) or --image-folder: your normalization on the
                          0-255 scale (torchvision's Normalize values times 255), each std
                          positive; --mean 0,0,0 --std 1,1,1: no normalization; default
                          ImageNet's, ${IMAGENET_255}`,
        },
        { name: 'std', type: 'string', usage: '' },
      ],
    },
  ],
  dataSources: true,
  env: [{ usage: '  FFMPEG_PATH, FFPROBE_PATH\n                          the video decoder of the Kinetics scenario (default: on PATH)', scope: 'built-in' }],
  exits: [
    '0 every scenario ran and nothing gating regressed (or no baseline for this profile: a note)',
    '1 a scenario failed, a gating metric regressed, or the run record or report could not be written',
    '2 bad usage or bad input (unknown flag, bad value, unreadable data, a --baselines folder that',
    '  does not exist, an output path that holds another kind of file), found before anything is measured',
    '3 no baseline for this profile with PERF_REQUIRE_BASELINE=1, or a profile, scale or data mismatch',
    '  without --allow-profile-mismatch (profile only), or nothing to judge (no metric on both sides that can be judged)',
  ],
  parse: (line) => ({
    command: 'perf',
    ...line.run(),
    ...line.compare(),
    out: line.str('out'),
    scenarios: line.many('scenario'),
    data: line.data(),
    processes: line.count('processes', 1),
    question: questionOf(line),
    dir: line.str('dir'),
    history: line.str('history'),
    verbose: line.flag('verbose'),
    videoTools: line.videoTools(),
  }),
  run: perfCommand,
};
