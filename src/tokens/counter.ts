// Token counts with o200k_base, made fast and safe: text is split into the tokenizer's own
// pre-tokens, each counted once and memoised, and merged with a heap (byte-pair.ts) on the rank
// table read straight from js-tiktoken's data (rank-table.ts), since js-tiktoken's own merge is
// quadratic on long pre-tokens (base64, minified code, runs of one character) and its constructor
// takes most of a second and 150 MB.

import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import type { Tiktoken as TiktokenType } from 'js-tiktoken/lite';
import { BytePairCounter } from './byte-pair.js';
import { loadO200k } from './rank-table.js';
import { HashedRanks, mapLookup } from './hashed-ranks.js';

const PIECE_MEMO_LIMIT = 500_000;
const TEXT_MEMO_LIMIT = 50_000;
const TEXT_MEMO_MIN_CHARS = 64;

interface Encoder {
  pattern: RegExp;
  merger: BytePairCounter;
}

let loaded: Encoder | undefined;

function encoder(): Encoder {
  if (!loaded) {
    // The build's rank file when there is one; js-tiktoken's data otherwise (tests run the sources).
    const built = HashedRanks.readBuilt();
    if (built) {
      loaded = { pattern: new RegExp(built.pattern, 'gu'), merger: new BytePairCounter(built) };
    } else {
      const { ranks, pattern } = loadO200k();
      loaded = { pattern: new RegExp(pattern, 'gu'), merger: new BytePairCounter(mapLookup(ranks)) };
    }
  }
  return loaded;
}

const pieceMemo = new Map<string, number>();
const textMemo = new Map<string, number>();

function countPiece(enc: Encoder, piece: string): number {
  let n = pieceMemo.get(piece);
  if (n !== undefined) return n;
  n = enc.merger.count(Buffer.from(piece, 'utf8'));
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

let reference: TiktokenType | undefined;

/** js-tiktoken's own count (quadratic on long pre-tokens; throws on special tokens): the oracle for tests. */
export function countTokensExact(text: string): number {
  if (!reference) {
    const require = createRequire(import.meta.url);
    const { Tiktoken } = require('js-tiktoken/lite') as typeof import('js-tiktoken/lite');
    const ranks = require('js-tiktoken/ranks/o200k_base') as { default?: unknown };
    reference = new Tiktoken((ranks.default ?? ranks) as ConstructorParameters<typeof Tiktoken>[0]);
  }
  return reference.encode(text).length;
}
