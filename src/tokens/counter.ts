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
import { asciiPieceEnd } from './pre-tokens.js';

const PIECE_MEMO_LIMIT = 500_000;
/**
 * Pre-tokens longer than this (a run with no split point: 8 MB of one letter, minified code) are
 * counted in chunks of this size, each memoised, so a run costs its distinct chunks, not its length.
 * The count may then differ from js-tiktoken's by at most one token per chunk (0.1% on a run of one
 * letter); everything up to this length is exact.
 */
const LONG_PIECE_CHARS = 8192;
const CHUNK_MEMO_LIMIT = 256;
const TEXT_MEMO_LIMIT = 50_000;
const TEXT_MEMO_MIN_CHARS = 64;

interface Encoder {
  /** The pre-tokenizer's pattern, sticky: it decides the pieces asciiPieceEnd cannot. */
  pattern: RegExp;
  merger: BytePairCounter;
}

let loaded: Encoder | undefined;

function encoder(): Encoder {
  if (!loaded) {
    // The build's rank file when there is one; js-tiktoken's data otherwise (tests run the sources).
    const built = HashedRanks.readBuilt();
    if (built) {
      loaded = { pattern: new RegExp(built.pattern, 'uy'), merger: new BytePairCounter(built) };
    } else {
      const { ranks, pattern } = loadO200k();
      loaded = { pattern: new RegExp(pattern, 'uy'), merger: new BytePairCounter(mapLookup(ranks)) };
    }
  }
  return loaded;
}

const pieceMemo = new Map<string, number>();
const textMemo = new Map<string, number>();
const chunkMemo = new Map<string, number>();

function countLongPiece(enc: Encoder, piece: string): number {
  let total = 0;
  for (let at = 0; at < piece.length;) {
    let end = Math.min(at + LONG_PIECE_CHARS, piece.length);
    const last = piece.charCodeAt(end - 1);
    if (end < piece.length && last >= 0xd800 && last <= 0xdbff) end--; // keep a surrogate pair whole
    const chunk = piece.slice(at, end);
    let n = chunkMemo.get(chunk);
    if (n === undefined) {
      n = enc.merger.count(Buffer.from(chunk, 'utf8'));
      if (chunkMemo.size >= CHUNK_MEMO_LIMIT) chunkMemo.clear();
      chunkMemo.set(chunk, n);
    }
    total += n;
    at = end;
  }
  return total;
}

function countPiece(enc: Encoder, piece: string): number {
  if (piece.length > LONG_PIECE_CHARS) return countLongPiece(enc, piece);
  let n = pieceMemo.get(piece);
  if (n !== undefined) return n;
  n = enc.merger.count(Buffer.from(piece, 'utf8'));
  if (pieceMemo.size >= PIECE_MEMO_LIMIT) pieceMemo.clear();
  pieceMemo.set(piece, n);
  return n;
}

/** End of the pre-token at `start` as the pattern finds it. */
function patternPieceEnd(enc: Encoder, text: string, start: number): number {
  enc.pattern.lastIndex = start;
  const match = enc.pattern.exec(text);
  // Every character starts some piece of o200k's pattern; one code point is the safe step if not.
  if (!match || match[0].length === 0) return start + (text.codePointAt(start)! > 0xffff ? 2 : 1);
  return start + match[0].length;
}

/** ASCII pieces of up to this many characters are memoised by a number made of their characters (shortMemo). */
const SHORT_PIECE_CHARS = 4;
const shortMemo = new Map<number, number>();

/**
 * An ASCII piece of 2 to SHORT_PIECE_CHARS characters (most pieces: ` the`, `ing`, `);`), counted
 * by a key made of its characters (each + 1, in base 129: under 2^30, so a small integer), so a
 * piece seen before costs neither a new string nor hashing one.
 */
function countShortAscii(enc: Encoder, text: string, start: number, end: number): number {
  let key = 0;
  for (let i = start; i < end; i++) key = key * 129 + text.charCodeAt(i) + 1;
  let n = shortMemo.get(key);
  if (n === undefined) {
    n = countPiece(enc, text.slice(start, end));
    if (shortMemo.size >= PIECE_MEMO_LIMIT) shortMemo.clear();
    shortMemo.set(key, n);
  }
  return n;
}

function countUncached(text: string): number {
  const enc = encoder();
  let total = 0;
  for (let start = 0; start < text.length;) {
    let end = asciiPieceEnd(text, start);
    if (end >= 0) {
      // An ASCII piece: one character is one byte, and every byte is a token.
      const length = end - start;
      total += length === 1 ? 1 : length <= SHORT_PIECE_CHARS ? countShortAscii(enc, text, start, end) : countPiece(enc, text.slice(start, end));
    } else {
      end = patternPieceEnd(enc, text, start);
      total += end === start + 1 && text.charCodeAt(start) < 128 ? 1 : countPiece(enc, text.slice(start, end));
    }
    start = end;
  }
  return total;
}

function memoKey(text: string): string {
  return text.length <= 512 ? text : createHash('sha1').update(text).digest('base64');
}

/** o200k_base tokens in `text`, not memoised as a whole (its pieces are): for texts seen once, such as samples. */
export function countTokensOnce(text: string): number {
  return text.length === 0 ? 0 : countUncached(text);
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
