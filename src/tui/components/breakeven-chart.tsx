// Cumulative cost after the trim, with and without it, call by call: where the lines cross the
// trim has paid for itself. Warm resume drawn; warm and cold break-even stated.

import type { BreakEvenView } from '../data/breakeven.js';
import type { Availability } from '../data/availability.js';
import { heading, line, type Line, type Segment, money } from '../lines.js';

export interface BreakEvenChartProps {
  breakEven: Availability<BreakEvenView>;
  width: number;
  /** Rows of the plot itself. */
  height?: number;
}

function turns(n: number | null): string {
  return n === null ? 'not within 60 calls' : `after ${n} call${n === 1 ? '' : 's'}`;
}

/** The plot's rows, top first: '·' without the trim, '•' with it, '×' where they share a cell. */
export function plotRows(curve: BreakEvenView['curve'], columns: number, height: number): string[] {
  if (curve.length === 0 || columns <= 0) return [];
  const max = Math.max(...curve.map((p) => Math.max(p.withoutTrim, p.withTrim)), 1e-9);
  const grid = Array.from({ length: height }, () => Array<string>(columns).fill(' '));
  const rowOf = (value: number) => height - 1 - Math.min(height - 1, Math.round((value / max) * (height - 1)));
  for (let c = 0; c < columns; c++) {
    const point = curve[Math.min(curve.length - 1, Math.floor((c * curve.length) / columns))];
    const a = rowOf(point.withoutTrim);
    const b = rowOf(point.withTrim);
    grid[a][c] = '·';
    grid[b][c] = a === b ? '×' : '•';
  }
  return grid.map((r) => r.join(''));
}

export function breakEvenLines({ breakEven, width, height = 6 }: BreakEvenChartProps): Line[] {
  const head = heading('be:h', 'Break-even of a trim now');
  if (breakEven.state === 'loading') return [head, line('be:l', { text: 'pricing the session…', dim: true })];
  if (breakEven.state === 'unavailable') return [head, line('be:u', { text: breakEven.reason, dim: true })];
  if (breakEven.state === 'error') return [head, line('be:e', { text: breakEven.message, color: 'red' })];
  const b = breakEven.value;
  const lines: Line[] = [
    head,
    line(
      'be:w',
      'warm cache: ',
      { text: turns(b.breakEvenTurns), bold: true, color: b.breakEvenTurns === null ? 'yellow' : 'green' },
      `  (first call ${b.penalty > 0 ? '+' : ''}${money(b.penalty)}, then ${money(-b.savingPerTurn)}/call)`,
    ),
    line('be:c', 'cold cache: ', { text: turns(b.cold.breakEvenTurns), bold: true }, `  (first call ${b.cold.penalty >= 0 ? '+' : ''}${money(b.cold.penalty)})`, {
      text: `  priced as ${b.model}`,
      dim: true,
    }),
  ];
  const axis = 9;
  const rows = plotRows(b.curve, Math.max(10, Math.min(60, width - axis - 1)), height);
  const top = b.curve.length ? Math.max(...b.curve.map((p) => Math.max(p.withoutTrim, p.withTrim))) : 0;
  rows.forEach((r, i) => {
    const label = i === 0 ? money(top) : i === rows.length - 1 ? '$0' : '';
    const segments: Segment[] = [{ text: label.padStart(axis - 1) + '┤', dim: true }];
    for (const ch of r) segments.push(ch === '•' ? { text: ch, color: 'green' } : ch === '×' ? { text: ch, color: 'yellow' } : { text: ch, dim: ch === '·' });
    lines.push(line(`be:r${i}`, ...merge(segments)));
  });
  if (rows.length) lines.push(line('be:x', { text: `${' '.repeat(axis)}calls after the trim → ${b.curve.length}    · without  • with the trim`, dim: true }));
  return lines;
}

/** Neighbouring segments of the same style as one (fewer Text nodes per row). */
function merge(segments: Segment[]): Segment[] {
  const out: Segment[] = [];
  for (const s of segments) {
    const last = out[out.length - 1];
    if (last && last.color === s.color && last.dim === s.dim && last.bold === s.bold) last.text += s.text;
    else out.push({ ...s });
  }
  return out;
}
