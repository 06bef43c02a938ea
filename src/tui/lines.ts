// The dashboard's unit of text: a line of styled segments, one terminal row. Sections of the
// detail pane are built as lines (pure, testable), so the pane can scroll them by row.

/** Sizes and counts read as they do in the command line's reports. */
export { formatBytes as bytes, formatCount as count, formatMoney as money, formatReduction as reduction, plural } from '../text/quantities.js';

export interface Segment {
  text: string;
  color?: string;
  bold?: boolean;
  dim?: boolean;
  inverse?: boolean;
}

export interface Line {
  key: string;
  segments: Segment[];
}

export function line(key: string, ...segments: (Segment | string)[]): Line {
  return { key, segments: segments.map((s) => (typeof s === 'string' ? { text: s } : s)) };
}

export function blank(key: string): Line {
  return { key, segments: [{ text: '' }] };
}

export function heading(key: string, text: string): Line {
  return line(key, { text, bold: true });
}

/** Cuts text to `width` columns, marking the cut with an ellipsis. */
export function clip(text: string, width: number): string {
  if (width <= 0) return '';
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

/** Cuts text to `width` columns from the left (paths: the end says most). */
export function clipLeft(text: string, width: number): string {
  if (width <= 0) return '';
  return text.length <= width ? text : `…${text.slice(text.length - width + 1)}`;
}

export function pad(text: string, width: number): string {
  const cut = clip(text, width);
  return cut + ' '.repeat(Math.max(0, width - cut.length));
}

export function percent(fraction: number): string {
  return `${(fraction * 100).toFixed(fraction < 0.1 && fraction > 0 ? 1 : 0)}%`;
}

export function ago(ms: number, now: number): string {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.round(m / 60);
  return h < 48 ? `${h}h` : `${Math.round(h / 24)}d`;
}

/** A horizontal bar of `width` cells: filled part, then a dotted rest. */
export function barSegments(fraction: number, width: number, color = 'cyan'): Segment[] {
  const cells = Math.max(0, Math.min(width, Math.round(fraction * width)));
  return [
    { text: '█'.repeat(cells), color },
    { text: '·'.repeat(width - cells), dim: true },
  ];
}
