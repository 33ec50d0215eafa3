/**
 * A progress line for long work (training epochs, the batch-size sweep, full runs): done/total,
 * rate and ETA. On a terminal one line redrawn in place (carriage return + erase to end of
 * line, at most every REDRAW_MS); elsewhere (CI logs, vitest workers) plain lines, at most one
 * per `plainEveryMs`, plus the last, so a log shows that work moves without a line per step.
 */

/** Where progress goes: a writable stream such as process.stderr. */
export interface ProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export interface ProgressOptions {
  /** What is being done: 'training cpu-normalize'. */
  readonly label: string;
  /** Units of work in all (steps, rounds). */
  readonly total: number;
  /** Their name, plural: 'steps'. */
  readonly unit: string;
  /** Default process.stderr, so the progress never mixes into piped stdout. */
  readonly stream?: ProgressStream;
  /** Redraw in place; default: whether the stream is a terminal. */
  readonly tty?: boolean;
  /** Without a terminal, the least time between two lines; default 15 s. */
  readonly plainEveryMs?: number;
  /** Estimate the time left from the rate (default); false when units differ too much in size for that (files of a run): elapsed time instead. */
  readonly eta?: boolean;
  readonly now?: () => number;
}

const REDRAW_MS = 100;
const BAR_WIDTH = 24;

/** 65 s -> '1:05', 3,723 s -> '1:02:03'; '?' when unknown. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '?';
  const s = Math.round(ms / 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`;
}

/** '[#########---------------]' for a fraction done. */
export function renderBar(fraction: number, width = BAR_WIDTH): string {
  const filled = Math.round(Math.min(1, Math.max(0, fraction)) * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
}

/** A rate with sensible precision: 12.3 steps/s, or 4.2 s/step when slower than one a second. */
function formatRate(perMs: number, unit: string): string {
  if (!(perMs > 0)) return `? ${unit}/s`;
  const perSecond = perMs * 1000;
  if (perSecond >= 1) return `${perSecond >= 100 ? perSecond.toFixed(0) : perSecond.toPrecision(3)} ${unit}/s`;
  return `${(1 / perSecond).toPrecision(3)} s/${unit.replace(/s$/, '')}`;
}

/** One progress display; call `update` as work is done and `finish` at the end. */
export class Progress {
  private readonly stream: ProgressStream;
  private readonly tty: boolean;
  private readonly plainEveryMs: number;
  private readonly now: () => number;
  private readonly started: number;
  private lastDrawn = Number.NEGATIVE_INFINITY;
  private drawnDone = -1;
  private drawnStatus = '';
  private done = 0;
  private status = '';
  private finished = false;

  constructor(private readonly options: ProgressOptions) {
    if (!Number.isInteger(options.total) || options.total < 0) throw new RangeError(`Progress: total must be an integer >= 0, got ${options.total}`);
    this.stream = options.stream ?? process.stderr;
    this.tty = options.tty ?? this.stream.isTTY === true;
    this.plainEveryMs = options.plainEveryMs ?? 15_000;
    this.now = options.now ?? (() => performance.now());
    this.started = this.now();
  }

  /** Sets the units done so far (and what is going on: 'epoch 2/5, loss 0.31'), redrawing when due. */
  update(done: number, status = this.status): void {
    this.done = Math.min(done, this.options.total);
    this.status = status;
    const t = this.now();
    const due = this.tty ? t - this.lastDrawn >= REDRAW_MS : t - this.lastDrawn >= this.plainEveryMs;
    const reachedTotal = this.done === this.options.total && this.drawnDone !== this.done;
    if (due || reachedTotal) this.draw(t);
  }

  /** Adds `count` units done. */
  tick(count = 1, status?: string): void {
    this.update(this.done + count, status);
  }

  /** Draws the final state and ends the line; later calls do nothing. */
  finish(status = this.status): void {
    if (this.finished) return;
    this.status = status;
    // Without a terminal, a last line that says nothing new is not repeated.
    if (this.tty || this.drawnDone !== this.done || this.drawnStatus !== this.status) this.draw(this.now());
    if (this.tty) this.stream.write('\n');
    this.finished = true;
  }

  /** The current line, without control characters. */
  line(t = this.now()): string {
    const { label, total, unit } = this.options;
    const elapsed = t - this.started;
    const rate = elapsed > 0 ? this.done / elapsed : 0;
    const left = this.options.eta === false ? `${formatDuration(elapsed)} so far` : `ETA ${rate > 0 ? formatDuration((total - this.done) / rate) : '?'}`;
    const eta = this.done >= total ? `done in ${formatDuration(elapsed)}` : left;
    const pct = total > 0 ? Math.floor((100 * this.done) / total) : 100;
    const bar = this.tty ? `${renderBar(total > 0 ? this.done / total : 1)} ` : '';
    const status = this.status ? ` | ${this.status}` : '';
    const speed = this.options.eta === false ? '' : ` ${formatRate(rate, unit)}`;
    return `${label} ${bar}${this.done}/${total} ${unit} (${pct}%)${speed} ${eta}${status}`;
  }

  /**
   * Writes other output (whole lines) without tearing the line drawn in place: on a terminal the
   * progress line is erased first and drawn again after; elsewhere `write` simply runs.
   */
  around(write: () => void): void {
    const drawn = this.tty && !this.finished && this.drawnDone >= 0;
    if (drawn) this.stream.write('\r\x1b[K');
    write();
    if (drawn) this.draw(this.now());
  }

  private draw(t: number): void {
    if (this.finished) return;
    let text = this.line(t);
    this.lastDrawn = t;
    this.drawnDone = this.done;
    this.drawnStatus = this.status;
    if (this.tty) {
      const columns = this.stream.columns ?? 120;
      if (text.length > columns - 1) text = `${text.slice(0, columns - 2)}…`;
      this.stream.write(`\r${text}\x1b[K`);
    } else {
      this.stream.write(`${text}\n`);
    }
  }
}
