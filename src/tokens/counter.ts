// Token counts with js-tiktoken's o200k_base, made fast and safe: text is split into the
// tokenizer's own pre-tokens, each counted once and memoised, and a pre-token longer than
// PIECE_CAP (base64, minified code) is counted in slices, since js-tiktoken's BPE is quadratic on it.

import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import type { Tiktoken as TiktokenType } from 'js-tiktoken/lite';

const PIECE_CAP = 200;
const PIECE_MEMO_LIMIT = 500_000;
const TEXT_MEMO_LIMIT = 50_000;
const TEXT_MEMO_MIN_CHARS = 64;

interface Encoder {
  encoder: TiktokenType;
  pattern: RegExp;
}

let loaded: Encoder | undefined;

function encoder(): Encoder {
  if (!loaded) {
    // Loaded on first use: the rank table takes most of a second to build.
    const require = createRequire(import.meta.url);
    const { Tiktoken } = require('js-tiktoken/lite') as typeof import('js-tiktoken/lite');
    const ranks = require('js-tiktoken/ranks/o200k_base') as { default?: unknown; pat_str?: string };
    const table = (ranks.default ?? ranks) as ConstructorParameters<typeof Tiktoken>[0];
    loaded = { encoder: new Tiktoken(table), pattern: new RegExp(table.pat_str, 'gu') };
  }
  return loaded;
}

const pieceMemo = new Map<string, number>();
const textMemo = new Map<string, number>();

function countPiece(enc: TiktokenType, piece: string): number {
  let n = pieceMemo.get(piece);
  if (n !== undefined) return n;
  if (piece.length <= PIECE_CAP) {
    n = enc.encode(piece).length;
  } else {
    n = 0;
    for (let i = 0; i < piece.length; i += PIECE_CAP) n += countPiece(enc, piece.slice(i, i + PIECE_CAP));
  }
  if (pieceMemo.size >= PIECE_MEMO_LIMIT) pieceMemo.clear();
  pieceMemo.set(piece, n);
  return n;
}

function countUncached(text: string): number {
  const { encoder: enc, pattern } = encoder();
  let total = 0;
  pattern.lastIndex = 0;
  for (const match of text.matchAll(pattern)) total += countPiece(enc, match[0]);
  return total;
}

function memoKey(text: string): string {
  return text.length <= 512 ? text : createHash('sha1').update(text).digest('base64');
}

/** o200k_base tokens in `text`. Memoised by content. */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  if (text.length < TEXT_MEMO_MIN_CHARS) return countUncached(text);
  const key = memoKey(text);
  let n = textMemo.get(key);
  if (n === undefined) {
    n = countUncached(text);
    if (textMemo.size >= TEXT_MEMO_LIMIT) textMemo.clear();
    textMemo.set(key, n);
  }
  return n;
}

/** Exact tokens without the piece cap, for tests that check the cap changes nothing on ordinary text. */
export function countTokensExact(text: string): number {
  return encoder().encoder.encode(text).length;
}
