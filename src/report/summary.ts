import { failingVerdicts, type Comparison } from '../results/compare.js';
import { flagged } from '../results/verdict.js';
import type { Metric, RunRecord } from '../results/schema.js';
import { ciDirection, type Direction, speedupSentence } from './format.js';
import { type Annotate, type Headline, scenarioHeadline } from './headline.js';
import { MNIST_SPEEDUP_ID } from '../results/metric-ids.js';

/** The article's two strategies: normalize on the CPU and send float32 (a), send uint8 and normalize on the device (b). */
export const CLAIM = { a: 'cpu-normalize', b: 'device-normalize' } as const;

/** The run's lead figure: the article's speedup (section 6). */
const SPEEDUP_ID = MNIST_SPEEDUP_ID;

/** Where a ratio was measured, in words: one process, or K of them. */
function measuredWhere(m: Metric): string {
  return (m.processes?.length ?? 0) >= 2 ? `across ${m.processes!.length} processes` : 'in this process';
}

/** A ratio of the run that tests the article's claim (b against a), and what its CI allows saying. */
export interface ClaimRatio {
  readonly metric: Metric;
  readonly a: string;
  readonly b: string;
  readonly direction: Direction;
  /** 'in this process' or 'across K processes'. */
  readonly where: string;
  /** What it compared: the part of the pipeline (or the dtypes) and the batch's shape. */
  readonly compared: string;
  /** What it says, as far as its CI allows: 'faster in this process (CI above 1)'. */
  readonly words: string;
}

/** One scenario of the run: its headline line and whether anything of it fails the run. */
export interface ScenarioSummary {
  readonly id: string;
  /** Its line (a figure with its CI and what it means); null when it recorded no figure. */
  readonly headline: Headline | null;
  /** The headline's lead figure when it is a ratio, with what its CI says against 1. */
  readonly speedup: { readonly metric: Metric; readonly ci: Metric['ci'] | null; readonly direction: Direction } | null;
  /** An error of the run, or a failing verdict on one of its metrics. */
  readonly failed: boolean;
  /** A metric of it regressed or beyond its band (`flagged`), failing or not: never shown as passing. */
  readonly flagged: boolean;
}

/** What every report says first, built once: the console and the HTML page render it. */
export interface RunSummary {
  /** The article's speedup in one sentence, as far as its CI allows; null when not measured. */
  readonly headline: string | null;
  /** In the order the run recorded them (metrics first, then errors). */
  readonly scenarios: readonly ScenarioSummary[];
  /** The ratios that test the article's claim. */
  readonly claims: readonly ClaimRatio[];
  /** Whether every claim ratio was measured in one process (its CI says nothing about the next). */
  readonly oneProcess: boolean;
}

/** The scenarios of the run in the order their metrics (then errors) appear. */
export function scenariosOf(record: RunRecord): string[] {
  return [...new Set([...record.metrics.map((m) => m.scenario), ...record.errors.map((e) => e.scenario)])];
}

/** Whether a scenario has a metric regressed or beyond its band against the baseline (results/verdict.ts: `flagged`). */
function scenarioFlagged(scenario: string, comparison: Comparison | null): boolean {
  if (!comparison || comparison.refused) return false;
  return comparison.verdicts.some((v) => flagged(v) && (v.current ?? v.baseline)?.scenario === scenario);
}

/** Whether a scenario has anything that fails the run: an error, or a failing verdict on one of its metrics. */
function scenarioFailed(scenario: string, record: RunRecord, comparison: Comparison | null): boolean {
  if (record.errors.some((e) => e.scenario === scenario)) return true;
  if (!comparison || comparison.refused) return false;
  return failingVerdicts(comparison.verdicts, record.selection).some((v) => (v.current ?? v.baseline)?.scenario === scenario);
}

/** What a claim ratio compared: the part of the pipeline and the batch's shape (from its detail). */
function comparedWhat(metric: Metric, a: string, b: string): string {
  const shape = /\[\d+(?:,\d+)+\]/.exec(metric.detail ?? '')?.[0];
  const part = metric.labels?.part === 'batch' ? 'whole batch (decode + collate + transfer)' : 'transfer';
  const what = a === CLAIM.a && b === CLAIM.b ? part : `${b} vs ${a} on the wire`;
  return `${what}${shape ? ` ${shape}` : ''}`;
}

/** The subject of a claim's sentence: named only when it is not the article's device strategy. */
export const claimSubject = (r: Pick<ClaimRatio, 'b'>) => (r.b === CLAIM.b ? '' : `${r.b} `);

function claimWords(metric: Metric, b: string, direction: Direction): string {
  const where = measuredWhere(metric);
  const subject = claimSubject({ b });
  if (direction === 'faster') return `${subject}faster ${where} (CI above 1)`;
  if (direction === 'slower') return `${subject}slower ${where} (CI below 1): the claim does not hold here`;
  return `no clear difference ${where} (${metric.ci ? 'CI includes 1' : 'no CI'})`;
}

/** The run's ratios of the article's two strategies, and uint8 against float32 on the wire (section 11). */
function claimRatios(record: RunRecord): ClaimRatio[] {
  return record.metrics.flatMap((metric): ClaimRatio[] => {
    if (metric.kind !== 'ratio' || !metric.labels) return [];
    const pair =
      metric.labels.a === CLAIM.a && metric.labels.b === CLAIM.b
        ? CLAIM
        : metric.labels.quantity === 'speedup-vs-float32' && metric.labels.dtype === 'uint8'
          ? { a: 'float32', b: 'uint8' }
          : null;
    if (!pair) return [];
    const direction = ciDirection(metric);
    return [
      {
        metric,
        ...pair,
        direction,
        where: measuredWhere(metric),
        compared: comparedWhat(metric, pair.a, pair.b),
        words: claimWords(metric, pair.b, direction),
      },
    ];
  });
}

/**
 * The summary of a run every report leads with: the article's speedup in a sentence, one line
 * per scenario (failed or not against `comparison`), and the ratios that test the claim, each
 * worded only as far as its CI allows. `annotate` adds to each line's lead figure (the console
 * sets its baseline beside it).
 */
export function runSummary(record: RunRecord, comparison: Comparison | null, annotate: Annotate = () => ''): RunSummary {
  const speedup = record.metrics.find((m) => m.id === SPEEDUP_ID);
  const scenarios = scenariosOf(record).map((id): ScenarioSummary => {
    const headline = scenarioHeadline(record, id, annotate);
    const lead = headline?.metric?.kind === 'ratio' ? headline.metric : null;
    return {
      id,
      headline,
      speedup: lead ? { metric: lead, ci: lead.ci ?? null, direction: ciDirection(lead) } : null,
      failed: scenarioFailed(id, record, comparison),
      flagged: scenarioFlagged(id, comparison),
    };
  });
  const claims = claimRatios(record);
  return {
    headline: speedup ? speedupSentence(speedup, CLAIM.a, CLAIM.b) : null,
    scenarios,
    claims,
    oneProcess: claims.every((r) => (r.metric.processes?.length ?? 0) < 2),
  };
}
