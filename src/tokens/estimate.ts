// Token counts of long texts, estimated from a sample of the text rather than counted in full:
// what `cmv analyze` needs of them is their share of the prompt, and counting every tool result a
// trim then stubs took half of its time, counting the long texts it keeps (Write and Edit inputs,
// replies) most of the rest. Short texts are counted exactly.

import type { JsonObject } from '../session/payload.js';
import { countTokens, countTokensOnce } from './counter.js';
import { recordTokens, type RecordTokens, type TextCounter, type TokenKind, type ToolNames } from './breakdown.js';

/** Texts shorter than this are counted in full. */
export const ESTIMATE_MIN_CHARS = 256;
/** Characters in one sampled window, and the share of a long text sampled (at least one window). */
const WINDOW_CHARS = 256;
const SAMPLE_SHARE = 1 / 8;
/** How far a window's edge moves to the next whitespace, so it starts (and ends) on a word as the tokenizer splits it. */
const ALIGN_CHARS = 32;

function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 9 || code === 13;
}

/** The first whitespace at or after `at` within ALIGN_CHARS, else `at` (a text without spaces: base64, minified code). */
function aligned(text: string, at: number): number {
  const limit = Math.min(text.length, at + ALIGN_CHARS);
  for (let i = at; i < limit; i++) if (isSpace(text.charCodeAt(i))) return i;
  return at;
}

/**
 * o200k_base tokens in `text`, estimated for a long text: windows spread evenly over it are
 * counted exactly and scaled by its length (deterministic: the same text, the same estimate).
 * Texts under ESTIMATE_MIN_CHARS are counted exactly.
 */
export function estimateTokens(text: string): number {
  if (text.length < ESTIMATE_MIN_CHARS) return countTokens(text);
  const windows = Math.max(1, Math.ceil((text.length * SAMPLE_SHARE) / WINDOW_CHARS));
  const stride = text.length / windows;
  let sampled = 0;
  let tokens = 0;
  for (let i = 0; i < windows; i++) {
    const start = aligned(text, Math.floor(i * stride + (stride - WINDOW_CHARS) / 2));
    let end = Math.min(text.length, aligned(text, start + WINDOW_CHARS));
    // Keep a surrogate pair whole.
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
    if (end <= start) continue;
    tokens += countTokensOnce(text.slice(start, end));
    sampled += end - start;
  }
  return sampled > 0 ? Math.round((tokens * text.length) / sampled) : countTokens(text);
}

interface Pending {
  text: string;
  kind: TokenKind;
  tool?: string;
}

/** Counts a text exactly when short, else estimates it (estimateTokens): what an analysis counts with. */
export const estimatingCounter: TextCounter = (text) => (text.length < ESTIMATE_MIN_CHARS ? countTokens(text) : estimateTokens(text));

/**
 * Counts one record before a trim strips it and after, each long text estimated once: before, its
 * long texts are set aside uncounted; after, the stripped record is counted (its long texts
 * estimated), and each long text of the original is then either kept (the estimate made for the
 * stripped record) or removed (estimated then). Both sides count a kept text the same, so what the
 * trim removes is the estimate of what it removed. One per record: `before`, then the strip (which
 * may change the record in place), then `after`.
 */
export class StrippedRecordCounter {
  private readonly pending: Pending[] = [];

  constructor(
    private readonly isAssistant: boolean,
    private readonly toolNames: ToolNames,
  ) {}

  /** Tokens of the record as read, its long texts left out until `after`. */
  before(record: JsonObject): RecordTokens {
    const defer: TextCounter = (text, kind, tool) => {
      if (text.length < ESTIMATE_MIN_CHARS) return countTokens(text);
      this.pending.push({ text, kind, tool });
      return 0;
    };
    return recordTokens(this.isAssistant, record, this.toolNames, defer);
  }

  /** The strip left the record as it was: its tokens as read (`before`, completed), the same after. */
  unchanged(before: RecordTokens): { before: RecordTokens; after: RecordTokens } {
    const full = this.complete(before, new Map());
    return { before: full, after: full };
  }

  /** Tokens of the stripped record, and of the record as read (`before`, completed). */
  after(stripped: JsonObject | null, before: RecordTokens): { before: RecordTokens; after: RecordTokens | null } {
    const kept = new Map<string, number>();
    const estimated: TextCounter = (text) => {
      if (text.length < ESTIMATE_MIN_CHARS) return countTokens(text);
      const n = estimateTokens(text);
      kept.set(text, n);
      return n;
    };
    const after = stripped ? recordTokens(this.isAssistant, stripped, this.toolNames, estimated) : null;
    return { before: this.complete(before, kept), after };
  }

  /** `before` with the long texts it set aside: each the estimate made for the stripped record, if it kept it, else estimated now. */
  private complete(before: RecordTokens, kept: Map<string, number>): RecordTokens {
    if (this.pending.length === 0) return before;
    const full: RecordTokens = { total: before.total, byKind: { ...before.byKind }, byTool: { ...before.byTool } };
    for (const { text, kind, tool } of this.pending) {
      const n = kept.get(text) ?? estimateTokens(text);
      full.total += n;
      full.byKind[kind] += n;
      if (tool !== undefined) full.byTool[tool] = (full.byTool[tool] ?? 0) + n;
    }
    return full;
  }
}
