// Charts drawn in the terminal with unicode blocks: the reduction histogram and the break-even
// distribution `cmv analyze` prints after its tables. Pure: figures and a width in, text out.

import chalk, { type ChalkInstance } from 'chalk';

/** Eighths of a cell, so a bar's length is exact to 1/8 of a column. */
const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/** A bar `fraction` of `width` cells long, padded with spaces to `width`. */
export function blockBar(fraction: number, width: number): string {
  if (width <= 0) return '';
  const eighths = Math.round(Math.max(0, Math.min(1, fraction)) * width * 8);
  const full = Math.floor(eighths / 8);
  const part = EIGHTHS[eighths % 8];
  return ('█'.repeat(full) + part).padEnd(width, ' ');
}

export interface HistogramBin {
  label: string;
  count: number;
}

/** Reductions (fractions 0..1) counted in bins of 10 points, as the SVG plot bins them: [0,10), ..., [90,100]. */
export function reductionBins(reductions: number[]): HistogramBin[] {
  const counts = new Array<number>(10).fill(0);
  for (const r of reductions) counts[Math.min(9, Math.max(0, Math.floor(r * 10)))]++;
  return counts.map((count, i) => ({ label: `${i * 10}-${i * 10 + 10}%`, count }));
}

export interface ChartOptions {
  /** Columns the chart may use. */
  width: number;
  /** Colour (or none): the chalk of the output stream. */
  ink?: ChalkInstance;
}

function column(values: string[]): number {
  return Math.max(0, ...values.map((v) => v.length));
}

/** One bar per bin, longest = the widest bar that fits; a count after each bar. Rows stay under `width`. */
export function histogram(title: string, bins: HistogramBin[], { width, ink = chalk }: ChartOptions): string {
  const labelWidth = column(bins.map((b) => b.label));
  const counts = bins.map((b) => String(b.count));
  const countWidth = column(counts);
  const barWidth = Math.max(4, width - labelWidth - countWidth - 3);
  const most = Math.max(1, ...bins.map((b) => b.count));
  const rows = bins.map((b, i) => {
    const bar = blockBar(b.count / most, barWidth);
    return `${b.label.padStart(labelWidth)} ${ink.cyan(bar)} ${b.count === 0 ? ink.dim(counts[i].padStart(countWidth)) : counts[i].padStart(countWidth)}`;
  });
  return [ink.bold(title), ...rows].join('\n');
}

export interface PairedBin {
  label: string;
  first: number;
  second: number;
}

/**
 * Two distributions over the same bins side by side (the break-even of a warm and of a cold
 * resume), on one scale so their bars compare.
 */
export function pairedHistogram(title: string, names: [string, string], bins: PairedBin[], { width, ink = chalk }: ChartOptions): string {
  const labelWidth = column(bins.map((b) => b.label));
  const countWidth = column(bins.flatMap((b) => [String(b.first), String(b.second)]));
  const barWidth = Math.max(4, Math.floor((width - labelWidth - 2 * countWidth - 6) / 2));
  const most = Math.max(1, ...bins.flatMap((b) => [b.first, b.second]));
  const cell = (n: number, paint: (text: string) => string) => `${paint(blockBar(n / most, barWidth))} ${n === 0 ? ink.dim(String(n).padStart(countWidth)) : String(n).padStart(countWidth)}`;
  const header = `${' '.repeat(labelWidth)} ${ink.blue(names[0].slice(0, barWidth + countWidth + 1).padEnd(barWidth + countWidth + 1))}  ${ink.magenta(names[1].slice(0, barWidth + countWidth + 1))}`;
  const rows = bins.map((b) => `${b.label.padStart(labelWidth)} ${cell(b.first, ink.blue)}  ${cell(b.second, ink.magenta)}`);
  return [ink.bold(title), header.trimEnd(), ...rows].join('\n');
}
