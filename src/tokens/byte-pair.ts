// Byte-pair merging of one pre-token, counted: the same merges as js-tiktoken's (lowest rank
// first, leftmost on ties) found with a heap, so a 50,000-character run costs milliseconds, not minutes.

import type { RankLookup } from './hashed-ranks.js';

const NO_MERGE = -1;
/** No o200k token is longer than this many bytes: longer spans need no lookup. */
const MAX_TOKEN_BYTES = 256;

const PAIR_CACHE_LIMIT = 1 << 20;
/**
 * Pieces up to this many bytes (nearly all) are merged by scanning their few pairs for the lowest
 * rank, in arrays kept between calls: the heap and its five arrays per piece cost more than they
 * save on a short piece.
 */
const SHORT_PIECE_BYTES = 64;

/** Counts tokens of pre-tokens with one rank table; remembers which token pairs merge into what. */
export class BytePairCounter {
  private readonly ranks: RankLookup;
  private readonly byteRank = new Int32Array(256);
  /** (left rank, right rank) -> rank of the merged token, or NO_MERGE. */
  private readonly pairRank = new Map<number, number>();
  // Scratch of countShort: where each part starts, and the rank its pair with the next merges to.
  private readonly starts = new Int32Array(SHORT_PIECE_BYTES + 1);
  private readonly pairs = new Int32Array(SHORT_PIECE_BYTES);

  constructor(ranks: RankLookup) {
    this.ranks = ranks;
    for (let b = 0; b < 256; b++) this.byteRank[b] = ranks.rank(Uint8Array.of(b), 0, 1);
  }

  /** Number of tokens `bytes` encodes to. */
  count(bytes: Buffer): number {
    const n = bytes.length;
    if (n <= 1) return n;
    // A piece that is itself a token is one token, whatever merging would reach (js-tiktoken does the same).
    if (n <= MAX_TOKEN_BYTES && this.ranks.rank(bytes, 0, n) !== NO_MERGE) return 1;
    if (n <= SHORT_PIECE_BYTES) return this.countShort(bytes, n);

    // Parts are named by their first byte; next[i] is where the part after part i starts (n: none).
    const next = new Int32Array(n);
    const prev = new Int32Array(n);
    const rank = new Int32Array(n); // the token each part is
    const version = new Uint32Array(n); // bumped whenever the pair starting at part i changes
    const alive = new Uint8Array(n).fill(1);
    for (let i = 0; i < n; i++) {
      next[i] = i + 1;
      prev[i] = i - 1;
      rank[i] = this.byteRank[bytes[i]];
    }
    const heap = new PairHeap();
    const pushPair = (i: number) => {
      const j = next[i];
      if (j >= n) return;
      const merged = this.merge(rank[i], rank[j], bytes, i, next[j] < n ? next[j] : n);
      if (merged !== NO_MERGE) heap.push(merged, i, version[i]);
    };
    for (let i = 0; i < n - 1; i++) pushPair(i);

    let parts = n;
    while (heap.size > 0) {
      const { rank: merged, start, version: seen } = heap.pop();
      if (!alive[start] || version[start] !== seen) continue; // stale: the pair changed since it was pushed
      const absorbed = next[start];
      alive[absorbed] = 0;
      next[start] = next[absorbed];
      if (next[start] < n) prev[next[start]] = start;
      rank[start] = merged;
      parts--;
      version[start]++;
      pushPair(start);
      const before = prev[start];
      if (before >= 0) {
        version[before]++;
        pushPair(before);
      }
    }
    return parts;
  }

  /** count() of a short piece: the same merges (lowest rank first, leftmost on ties) found by a scan. */
  private countShort(bytes: Uint8Array, n: number): number {
    const { starts, pairs } = this;
    for (let i = 0; i < n; i++) starts[i] = i;
    starts[n] = n;
    let count = n;
    // The rank table straight: on a short piece its lookup is cheaper than the pair cache's (a Map of a million numbers).
    const ranks = this.ranks;
    const pairAt = (i: number): number => (i + 1 < count ? ranks.rank(bytes, starts[i], starts[i + 2]) : NO_MERGE);
    for (let i = 0; i < count - 1; i++) pairs[i] = pairAt(i);
    for (;;) {
      let best = -1;
      let bestRank = 0;
      for (let i = 0; i < count - 1; i++) {
        const r = pairs[i];
        if (r !== NO_MERGE && (best < 0 || r < bestRank)) {
          best = i;
          bestRank = r;
        }
      }
      if (best < 0) return count;
      // Part best absorbs part best+1.
      for (let i = best + 1; i < count - 1; i++) {
        starts[i] = starts[i + 1];
        pairs[i] = pairs[i + 1];
      }
      starts[count - 1] = starts[count];
      count--;
      pairs[best] = pairAt(best);
      if (best > 0) pairs[best - 1] = pairAt(best - 1);
    }
  }

  /** Rank of the token two adjacent tokens merge into (bytes[from, to) are both), or NO_MERGE. */
  private merge(left: number, right: number, bytes: Uint8Array, from: number, to: number): number {
    if (to - from > MAX_TOKEN_BYTES) return NO_MERGE;
    if (left === NO_MERGE || right === NO_MERGE) return this.ranks.rank(bytes, from, to);
    const key = left * 0x40000 + right; // ranks < 2^18
    let merged = this.pairRank.get(key);
    if (merged === undefined) {
      merged = this.ranks.rank(bytes, from, to);
      if (this.pairRank.size >= PAIR_CACHE_LIMIT) this.pairRank.clear();
      this.pairRank.set(key, merged);
    }
    return merged;
  }
}

/** A binary min-heap of candidate merges ordered by (rank, start): the lowest rank, leftmost first. */
class PairHeap {
  // rank * 2^32 + start fits a double exactly (ranks < 2^20, starts < 2^32), and orders as (rank, start).
  private keys: number[] = [];
  private versions: number[] = [];

  get size(): number {
    return this.keys.length;
  }

  push(rank: number, start: number, version: number): void {
    const keys = this.keys;
    const versions = this.versions;
    const key = rank * 4294967296 + start;
    let i = keys.length;
    keys.push(key);
    versions.push(version);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent] <= key) break;
      keys[i] = keys[parent];
      versions[i] = versions[parent];
      i = parent;
    }
    keys[i] = key;
    versions[i] = version;
  }

  pop(): { rank: number; start: number; version: number } {
    const keys = this.keys;
    const versions = this.versions;
    const top = { rank: Math.floor(keys[0] / 4294967296), start: keys[0] % 4294967296, version: versions[0] };
    const lastKey = keys.pop()!;
    const lastVersion = versions.pop()!;
    const size = keys.length;
    if (size > 0) {
      let i = 0;
      for (;;) {
        let child = 2 * i + 1;
        if (child >= size) break;
        if (child + 1 < size && keys[child + 1] < keys[child]) child++;
        if (keys[child] >= lastKey) break;
        keys[i] = keys[child];
        versions[i] = versions[child];
        i = child;
      }
      keys[i] = lastKey;
      versions[i] = lastVersion;
    }
    return top;
  }
}
