// Token counts with js-tiktoken's o200k_base, made fast and safe: text is split into the
// tokenizer's own pre-tokens, each counted once and memoised, and merged with a heap
// (byte-pair.ts) on js-tiktoken's rank table, since js-tiktoken's own merge is quadratic on long
// pre-tokens (base64, minified code, runs of one character) and its encode() rebuilds its regexes per call.

import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import type { Tiktoken as TiktokenType } from 'js-tiktoken/lite';
import { BytePairCounter, type RankTable } from './byte-pair.js';

/** Without the rank table (a js-tiktoken whose internals changed), longer pre-tokens are counted in slices. */
const PIECE_CAP = 200;
const PIECE_MEMO_LIMIT = 500_000;
const TEXT_MEMO_LIMIT = 50_000;
const TEXT_MEMO_MIN_CHARS = 64;

interface Encoder {
  encoder: TiktokenType;
  pattern: RegExp;
  /** Merges on js-tiktoken's own rank table (an internal field), shared rather than built twice. */
  merger?: BytePairCounter;
}

let loaded: Encoder | undefined;

function encoder(): Encoder {
  if (!loaded) {
    // Loaded on first use: the rank table takes most of a second to build.
    const require = createRequire(import.meta.url);
    const { Tiktoken } = require('js-tiktoken/lite') as typeof import('js-tiktoken/lite');
    const ranks = require('js-tiktoken/ranks/o200k_base') as { default?: unknown; pat_str?: string };
    const table = (ranks.default ?? ranks) as ConstructorParameters<typeof Tiktoken>[0];
    const tiktoken = new Tiktoken(table);
    const rankMap = (tiktoken as unknown as { rankMap?: unknown }).rankMap;
    loaded = { encoder: tiktoken, pattern: new RegExp(table.pat_str, 'gu'), merger: rankMap instanceof Map ? new BytePairCounter(rankMap as RankTable) : undefined };
  }
  return loaded;
}

const pieceMemo = new Map<string, number>();
const textMemo = new Map<string, number>();
const utf8 = new TextEncoder();

function countPiece(enc: Encoder, piece: string): number {
  let n = pieceMemo.get(piece);
  if (n !== undefined) return n;
  if (enc.merger) {
    n = enc.merger.count(utf8.encode(piece));
  } else if (piece.length <= PIECE_CAP) {
    n = enc.encoder.encode(piece).length;
  } else {
    n = 0;
    for (let i = 0; i < piece.length; i += PIECE_CAP) n += countPiece(enc, piece.slice(i, i + PIECE_CAP));
  }
  if (pieceMemo.size >= PIECE_MEMO_LIMIT) pieceMemo.clear();
  pieceMemo.set(piece, n);
  return n;
}

function countUncached(text: string): number {
  const enc = encoder();
  let total = 0;
  for (const match of text.matchAll(enc.pattern)) total += countPiece(enc, match[0]);
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

/** js-tiktoken's own count (quadratic on long pre-tokens; throws on special tokens), for tests of countTokens. */
export function countTokensExact(text: string): number {
  return encoder().encoder.encode(text).length;
}
