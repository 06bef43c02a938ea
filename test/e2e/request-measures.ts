// What the trim's e2e tests measure on a captured request, and how they print it: message tokens,
// thinking blocks, the texts one request lacks, and the reduction figures of their reports.

import { countTokens } from '../../src/tokens/counter.js';
import { blocksOf, diffTexts, isClientAddedText, messagesOf, type RequestText } from './request-texts.js';

/**
 * o200k tokens of the request's `messages` as JSON, without the context the client builds for this
 * machine at request time, which no trim of the log changes: 2.1.332's role:"system" messages and
 * the `<system-reminder>` text blocks both clients put in user messages (2.1.332's are ~3k tokens).
 */
export function messageTokens(body: any): number {
  const conversation = messagesOf(body)
    .filter((m) => m.role !== 'system')
    .map((m) => ({ role: m.role, content: blocksOf(m).filter((b) => !(b.type === 'text' && typeof b.text === 'string' && isClientAddedText(b.text))) }));
  return countTokens(JSON.stringify(conversation));
}

export function thinkingBlocks(body: any): number {
  return messagesOf(body).reduce((n, m) => n + blocksOf(m).filter((b) => b.type === 'thinking' || b.type === 'redacted_thinking').length, 0);
}

function clip(text: string, n = 100): string {
  return JSON.stringify(text.length > n ? `${text.slice(0, n)}…` : text);
}

/** The texts of `original` that `trimmed` lacks, one line each (the first ten); '' when none. */
export function missingTexts(original: RequestText[], trimmed: RequestText[]): string {
  const missing = diffTexts(original, trimmed).filter((m) => m.kind === 'missing');
  return missing
    .slice(0, 10)
    .map((m) => `  - #${m.index} ${m.role}: ${clip(m.text)}`)
    .join('\n');
}

export const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export function reductionOf(row: { originalTokens: number; trimmedTokens: number }): number {
  return row.originalTokens > 0 ? 1 - row.trimmedTokens / row.originalTokens : 0;
}

export function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Rows under a header, the first column left-aligned and the others right-aligned. */
export function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const fmt = (row: string[]) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  return [fmt(header), ...rows.map(fmt)];
}
