// A batch's progress on stderr: files done of all, MB/s and the time left, as one line redrawn in
// place and at most every `intervalMs`. Only for a terminal; the caller decides when to use it.

import chalk, { type ChalkInstance } from 'chalk';
import type { BatchProgress } from '../analyze/batch.js';
import { blockBar } from './charts.js';
import { formatBytes } from './format.js';

const MB = 1024 * 1024;

function visibleLength(text: string): number {
  return text.replace(/\u001b\[[0-9;]*m/g, '').length;
}
const MAX_BAR = 30;

export function formatDuration(seconds: number): string {
  if (seconds < 1) return '<1 s';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

/** The progress line for `width` columns (never wider, so a redraw never wraps). */
export function progressLine(p: BatchProgress, elapsedMs: number, width: number, ink: ChalkInstance = chalk): string {
  const seconds = elapsedMs / 1000;
  const rate = seconds > 0 ? p.bytesDone / seconds : 0;
  const eta = p.done >= p.total ? 'done' : rate > 0 ? `ETA ${formatDuration((p.bytesTotal - p.bytesDone) / rate)}` : 'ETA …';
  const speed = rate > 0 ? `${(rate / MB).toFixed(1)} MB/s` : '… MB/s';
  const facts = ` ${p.done}/${p.total} files · ${formatBytes(p.bytesDone)} of ${formatBytes(p.bytesTotal)} · ${speed} · ${eta}`;
  const head = 'analysing ';
  const room = width - 1 - head.length - facts.length;
  if (room < 4) return `${head}${facts}`.slice(0, Math.max(0, width - 1));
  const fraction = p.bytesTotal > 0 ? p.bytesDone / p.bytesTotal : p.total > 0 ? p.done / p.total : 0;
  return `${head}${ink.cyan(blockBar(fraction, Math.min(MAX_BAR, room)))}${facts}`;
}

export interface ProgressStream {
  write(text: string): unknown;
  columns?: number;
}

export interface ProgressDisplayOptions {
  /** Least time between two redraws (the last state is always drawn). */
  intervalMs?: number;
  /** TERM=dumb: no escape sequences, the old line is blanked with spaces. */
  plain?: boolean;
  ink?: ChalkInstance;
  now?: () => number;
}

export class ProgressDisplay {
  private readonly started: number;
  private lastDraw = -Infinity;
  private drawnWidth = 0;

  constructor(
    private readonly stream: ProgressStream,
    private readonly options: ProgressDisplayOptions = {},
  ) {
    this.started = this.now();
  }

  private now(): number {
    return this.options.now ? this.options.now() : performance.now();
  }

  update(p: BatchProgress): void {
    const now = this.now();
    if (p.done < p.total && now - this.lastDraw < (this.options.intervalMs ?? 100)) return;
    this.lastDraw = now;
    const line = progressLine(p, now - this.started, this.stream.columns || 80, this.options.ink);
    this.stream.write(this.options.plain ? `\r${line}${' '.repeat(Math.max(0, this.drawnWidth - visibleLength(line)))}` : `\r${line}\u001b[K`);
    this.drawnWidth = visibleLength(line);
  }

  /** Removes the line, so what follows starts on a clean row. */
  clear(): void {
    if (this.drawnWidth === 0) return;
    this.stream.write(this.options.plain ? `\r${' '.repeat(this.drawnWidth)}\r` : '\r\u001b[2K');
    this.drawnWidth = 0;
  }
}
