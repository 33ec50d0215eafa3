import { z } from 'zod';

/**
 * Formats of what doctor writes: its report (`--json FILE`) and a profile's envelope
 * (`baselines/<profile-id>.doctor.json`). Bump a version on any change a reader must know about.
 */
export const DOCTOR_REPORT_VERSION = 1;
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

/** What `npm run doctor -- --json FILE` writes. */
export const doctorReportSchema = z
  .object({
    schemaVersion: z.literal(DOCTOR_REPORT_VERSION),
    kind: z.literal('gpu-transfer-perf doctor report'),
    createdAt: z.iso.datetime(),
    settings: z.object({ backend: z.string(), quick: z.boolean(), expectGpu: z.boolean() }).strict(),
    /** Null when no backend started. */
    profile: profileSummarySchema.nullable(),
    node: z.string(),
    os: z.string(),
    /** Other work on the host when doctor started (src/doctor/host-load.ts): busy hosts' low figures only warn. */
    host: z.object({ load1: z.number().nonnegative(), cores: z.number().int().positive(), otherCpu: z.number().min(0).max(1), busy: z.boolean() }).strict(),
    checks: z.array(checkSchema),
    figures: z.array(figureSchema),
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
