import { IMAGE_RESAMPLES, PIL_MAX_IMAGE_PIXELS } from '../data/image-folder/options.js';
import { parseShape, parseSize, ShapeParseError } from '../data/shape.js';
import { EXIT } from '../results/exit.js';
import { processCountRange } from '../results/process-verdict.js';
import type { Question, QuestionNormalization } from '../run-config.js';
import { isIdentityChannels } from '../transfer/normalization.js';
import { WIRE_DTYPES, type WireDtype } from '../transfer/wire-dtypes.js';
import type { CommandSpec, ParsedLine } from './command-spec.js';
import { judgePerf } from './perf/judge.js';
import { measurePerf } from './perf/measure.js';
import { type PerfArgs, planPerf } from './perf/plan.js';
import { writePerf } from './perf/write.js';
import { UsageError } from './usage-error.js';

export { type PerfArgs, perfRunConfig } from './perf/plan.js';

/**
 * `npm run perf`: plan (flags read, inputs and outputs checked), measure the selected perf/ specs
 * and timed scenarios, judge the run against its profile's baseline (when there is one), write the
 * run record, report, exports and history; the exit code. Each phase is its own module (src/cli/perf/).
 */
export async function perfCommand(args: PerfArgs): Promise<number> {
  const plan = await planPerf(args);
  const measured = await measurePerf(plan);
  if (!measured) {
    console.error('\nNo run record: no scenario reached a backend (see the errors above).');
    return EXIT.regression;
  }
  const { remeasure } = await import('../runner/perf.js');
  const judged = await judgePerf(plan, measured, (asked) => remeasure(asked, plan.files, plan.config, plan.browser));
  return writePerf(plan, judged);
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
                          least 6, the fewest whose values can decide against a baseline, and
                          at most 200)`,
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
    'browser',
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
    '1 a scenario failed, a gating metric regressed, a browser process was lost (crashed, or hung: a test',
    '  past its own timeout or the process past --browser-timeout, the test named), or the run record or',
    '  report could not be written',
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
    // 1, else from the fewest whose values can decide against a baseline: one refusal states both (issue 51).
    processes: line.count('processes', 1, processCountRange()),
    question: questionOf(line),
    dir: line.str('dir'),
    history: line.str('history'),
    verbose: line.flag('verbose'),
    videoTools: line.videoTools(),
    ...line.browser(),
  }),
  run: perfCommand,
};
