import { z } from 'zod';

/**
 * Formats of what doctor writes: its report (`--json FILE`) and a profile's envelope
 * (`baselines/<profile-id>.doctor.json`). Bump a version on any change a reader must know about.
 */
export const DOCTOR_REPORT_VERSION = 3;
/**
 * Report versions a reader accepts: 2 added `physical` and `settings.sysfsRoot`, and lets `host`
 * be null (a copy of another machine's /sys measures nothing here); 3 added `browser` and
 * `settings.browser` (`--browser chromium`; null when not asked). An older report is a newer one
 * without them (kit runs of older versions still make envelopes).
 */
export const DOCTOR_REPORT_VERSIONS = [1, 2, 3] as const;
export const ENVELOPE_VERSION = 1;

/** ok: as it should be; info: a fact, no judgement; warn: works, but look; fail: not set up right (exit 1). */
export const CHECK_STATUSES = ['ok', 'info', 'warn', 'fail'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

export const checkSchema = z
  .object({
    /** Dotted id, e.g. 'webgpu.adapter', 'figure.upload.64mib'. */
    id: z.string().regex(/^[a-z0-9][a-z0-9.-]*$/),
    status: z.enum(CHECK_STATUSES),
    /** One line: what was found and, when not ok, what to do. */
    reason: z.string().min(1),
  })
  .strict();
export type Check = z.infer<typeof checkSchema>;

/** Units of doctor's figures: decimal GB/s (1e9 B/s), a ratio ('x'), a fraction of another figure. */
export const FIGURE_UNITS = ['GB/s', 'x', 'fraction'] as const;

export const figureSchema = z
  .object({
    /** e.g. 'upload.64mib', 'copy.16mib', 'normalize.fraction-of-copy', 'speedup.mnist-batch'. */
    id: z.string().regex(/^[a-z0-9][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)+$/),
    label: z.string().min(1),
    value: z.number(),
    unit: z.enum(FIGURE_UNITS),
    /** Timed repetitions (or pairs) behind the value. */
    n: z.number().int().positive(),
    /** Lowest and highest single-repetition value, where there is one per repetition. */
    spread: z.tuple([z.number(), z.number()]).optional(),
    /** 95% confidence interval, for the speedup. */
    ci: z.tuple([z.number(), z.number()]).optional(),
    /** What was measured, how, and with which clock. */
    detail: z.string(),
  })
  .strict();
export type Figure = z.infer<typeof figureSchema>;

const profileSummarySchema = z
  .object({
    id: z.string().min(1),
    backend: z.string(),
    adapter: z.string().nullable(),
    isSoftware: z.boolean().nullable(),
    cpu: z.string(),
    cores: z.number().int().positive(),
  })
  .strict();
export type ProfileSummary = z.infer<typeof profileSummarySchema>;

const linkReadingSchema = z.object({ speedText: z.string().nullable(), gts: z.number().nullable(), width: z.number().int().nullable() }).strict();

/** One PCI function on a device's path, as read (src/doctor/physical/sysfs.ts PciHop, without its folder). */
const pciHopSchema = z
  .object({
    bdf: z.string(),
    vendor: z.string().nullable(),
    device: z.string().nullable(),
    classCode: z.string().nullable(),
    current: linkReadingSchema,
    max: linkReadingSchema,
    internal: z.boolean(),
  })
  .strict();

/**
 * The physical verdicts and every reading behind them (src/doctor/physical/): what a kit run
 * brings back from a GPU machine is enough to judge it again, or to make a sysfs copy of it.
 */
export const physicalSchema = z
  .object({
    /** The sysfs root read ('/sys', or a copy's). */
    source: z.string(),
    /** A copy given with --sysfs-root: nothing was measured against it. */
    isCopy: z.boolean(),
    devices: z.array(
      z
        .object({
          bdf: z.string(),
          vendor: z.string(),
          device: z.string(),
          classCode: z.string(),
          kind: z.enum(['display', 'accelerator']),
          hops: z.array(pciHopSchema),
          numaNode: z.number().int().nullable(),
          localCpulist: z.string().nullable(),
          path: z.string(),
        })
        .strict(),
    ),
    /** Cpus_allowed_list of the process (proc/self/status), null when unknown. */
    allowedCpus: z.string().nullable(),
    virtualMachine: z.object({ hypervisorFlag: z.boolean(), sysVendor: z.string().nullable() }).strict(),
    /** Current links read again while uploads ran, best reading per hop; null when not read. */
    underLoad: z.array(z.object({ bdf: z.string(), reading: linkReadingSchema }).strict()).nullable(),
    verdict: z
      .object({
        match: z.enum(['host', 'matched', 'ambiguous', 'none', 'unknown']),
        candidates: z.array(z.string()),
        links: z.array(
          z
            .object({
              bdf: z.string(),
              verdict: z.enum(['healthy', 'degraded', 'unknown']),
              currentGBps: z.number().nullable(),
              capableGBps: z.number().nullable(),
              bottleneck: z.string().nullable(),
              internal: z.array(z.string()),
            })
            .strict(),
        ),
        numa: z.array(
          z
            .object({ bdf: z.string(), verdict: z.enum(['local', 'remote', 'unbound', 'not-applicable', 'unknown']), numaNode: z.number().int().nullable() })
            .strict(),
        ),
        virtualMachine: z.boolean(),
        linkLimitGBps: z.number().nullable(),
      })
      .strict(),
    efficiency: z
      .object({
        limit: z.enum(['pcie-link', 'host-memory-copy']),
        limitGBps: z.number().positive(),
        measuredGBps: z.number(),
        fraction: z.number(),
        band: z.enum(['healthy', 'low', 'underperforming']),
        expectation: z.string(),
        plateauReached: z.boolean(),
      })
      .strict()
      .nullable(),
  })
  .strict();
export type PhysicalSection = z.infer<typeof physicalSchema>;

/** One API in the browser's page (`--browser`): started through tfjs or why not, and its tfjs uploads. */
const browserApiSchema = z
  .object({
    started: z.boolean(),
    /** Why it did not start, in the page's words (requestAdapter null, context creation failed, tfjs fell back); null when started. */
    whyNot: z.string().nullable(),
    /** What tfjs ran on after asking for this API (tf.getBackend()). */
    running: z.string().nullable(),
    /** Rates of tfjs uploads of a float32 tensor in the page, synced with the device (ids upload.<size>). */
    uploads: z.array(figureSchema),
    /** Why the uploads stopped short, or null. */
    uploadError: z.string().nullable(),
  })
  .strict();

/** What `--browser chromium` found in one launch of the browser (src/doctor/browser-section.ts). */
export const browserSectionSchema = z
  .object({
    name: z.string(),
    version: z.string(),
    path: z.string(),
    /** Why the page gave no findings (the browser crashed, the page hung past --browser-timeout); null when it did. */
    lost: z.string().nullable(),
    userAgent: z.string().nullable(),
    /** The WebGPU adapter navigator.gpu.requestAdapter() gave; null when none. `name`: its description, or the software rasterizer's name where Chromium leaves that empty. */
    adapter: z
      .object({
        vendor: z.string(),
        architecture: z.string(),
        device: z.string(),
        description: z.string(),
        name: z.string(),
        isSoftware: z.boolean(),
        isFallbackAdapter: z.boolean().nullable(),
        features: z.array(z.string()),
        limits: z.record(z.string(), z.number()),
      })
      .strict()
      .nullable(),
    webgpu: browserApiSchema,
    webgl: browserApiSchema.extend({ gl: z.object({ vendor: z.string(), renderer: z.string(), version: z.string() }).strict().nullable() }).strict(),
    /** Node's rates of the same tfjs uploads at the same sizes in this doctor run (its running backend), to set the page's beside. */
    node: z
      .object({ backend: z.string(), uploads: z.array(figureSchema) })
      .strict()
      .nullable(),
  })
  .strict();
export type BrowserSection = z.infer<typeof browserSectionSchema>;

/** What `npm run doctor -- --json FILE` writes. */
export const doctorReportSchema = z
  .object({
    schemaVersion: z.union([z.literal(DOCTOR_REPORT_VERSIONS[0]), z.literal(DOCTOR_REPORT_VERSIONS[1]), z.literal(DOCTOR_REPORT_VERSIONS[2])]),
    kind: z.literal('gpu-transfer-perf doctor report'),
    createdAt: z.iso.datetime(),
    settings: z
      .object({
        backend: z.string(),
        quick: z.boolean(),
        expectGpu: z.boolean(),
        sysfsRoot: z.string().nullable().optional(),
        /** --browser (version 3). */
        browser: z.string().nullable().optional(),
      })
      .strict(),
    /** Null when no backend started. */
    profile: profileSummarySchema.nullable(),
    node: z.string(),
    os: z.string(),
    /** Other work on the host when doctor started (src/doctor/host-load.ts): busy hosts' low figures only warn. */
    host: z
      .object({ load1: z.number().nonnegative(), cores: z.number().int().positive(), otherCpu: z.number().min(0).max(1), busy: z.boolean() })
      .strict()
      .nullable(),
    checks: z.array(checkSchema),
    /** The physical verdicts (version 2): absent in version 1 reports. */
    physical: physicalSchema.optional(),
    figures: z.array(figureSchema),
    /** What --browser found in the browser's page (version 3): null when not asked, absent in older reports. */
    browser: browserSectionSchema.nullable().optional(),
    /** The envelope the figures were judged against (path looked at; null profile when none). */
    envelope: z.object({ path: z.string().nullable(), found: z.boolean() }).strict(),
    durationSeconds: z.number().nonnegative(),
    exitCode: z.number().int(),
  })
  .strict();
export type DoctorReport = z.infer<typeof doctorReportSchema>;

/** The expected range of one figure on a profile. */
export const figureRangeSchema = z
  .object({
    unit: z.enum(FIGURE_UNITS),
    lo: z.number(),
    hi: z.number(),
    /** What the range was made from: each process's value, summarized. */
    observed: z.object({ n: z.number().int().positive(), min: z.number(), median: z.number(), max: z.number() }).strict(),
  })
  .strict()
  .refine((r) => r.lo <= r.hi, 'lo must not exceed hi');
export type FigureRange = z.infer<typeof figureRangeSchema>;

/** `baselines/<profile-id>.doctor.json`: the range each doctor figure should fall in on that profile. */
export const envelopeSchema = z
  .object({
    schemaVersion: z.literal(ENVELOPE_VERSION),
    kind: z.literal('gpu-transfer-perf doctor envelope'),
    profile: z.string().min(1),
    createdAt: z.iso.datetime(),
    /** How the ranges were made, in words and numbers, so a reader can judge them. */
    derivation: z
      .object({
        processes: z.number().int().positive(),
        /** Each range is [min * (1 - margin), max * (1 + margin)] over the processes' values. */
        margin: z.number().min(0).max(1),
        quick: z.boolean(),
        machine: z.string(),
        git: z.string().nullable(),
        note: z.string(),
      })
      .strict(),
    figures: z.record(z.string(), figureRangeSchema),
  })
  .strict();
export type Envelope = z.infer<typeof envelopeSchema>;
