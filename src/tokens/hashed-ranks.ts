// The o200k rank table as one flat binary file, written at build time and read in a few
// milliseconds: an open-addressing hash table over the tokens' bytes (FNV-1a). Building the Map
// from js-tiktoken's data instead takes about 120 ms on every run.

import { readFileSync } from 'node:fs';

/** Where the build writes the rank table (write-rank-file.ts), beside this module. */
export const BUILT_RANK_FILE = new URL('./o200k.ranks', import.meta.url);

/** Rank of the token spelled by bytes[from, to), or -1 when no token is spelled so. */
export interface RankLookup {
  rank(bytes: Uint8Array, from: number, to: number): number;
}

const MAGIC = 0x52483230; // "02HR"
const HEADER_INTS = 5; // magic, tokens, slots, blob bytes, pattern bytes

function hashOf(bytes: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}

export class HashedRanks implements RankLookup {
  private constructor(
    private readonly ranks: Int32Array,
    private readonly offsets: Int32Array,
    private readonly slots: Int32Array,
    private readonly blob: Uint8Array,
    readonly pattern: string,
  ) {}

  rank(bytes: Uint8Array, from: number, to: number): number {
    const length = to - from;
    const mask = this.slots.length - 1;
    for (let slot = hashOf(bytes, from, to) & mask; ; slot = (slot + 1) & mask) {
      const token = this.slots[slot] - 1;
      if (token < 0) return -1;
      const start = this.offsets[token];
      if (this.offsets[token + 1] - start !== length) continue;
      let same = true;
      for (let i = 0; i < length; i++) {
        if (this.blob[start + i] !== bytes[from + i]) {
          same = false;
          break;
        }
      }
      if (same) return this.ranks[token];
    }
  }

  /** Serialises a rank table (token bytes as latin1 strings -> rank) and the pre-tokenizer's pattern. */
  static encode(table: Map<string, number>, pattern: string): Buffer {
    const tokens = [...table.entries()].map(([key, rank]) => ({ bytes: Buffer.from(key, 'latin1'), rank }));
    let slotCount = 1;
    while (slotCount < tokens.length * 2) slotCount *= 2;
    const blobBytes = tokens.reduce((n, t) => n + t.bytes.length, 0);
    const patternBytes = Buffer.from(pattern, 'utf8');
    const ints = HEADER_INTS + tokens.length + tokens.length + 1 + slotCount;
    const out = Buffer.alloc(ints * 4 + blobBytes + patternBytes.length);
    const view = new Int32Array(out.buffer, out.byteOffset, ints);
    view.set([MAGIC, tokens.length, slotCount, blobBytes, patternBytes.length]);
    const ranks = view.subarray(HEADER_INTS, HEADER_INTS + tokens.length);
    const offsets = view.subarray(HEADER_INTS + tokens.length, HEADER_INTS + 2 * tokens.length + 1);
    const slots = view.subarray(HEADER_INTS + 2 * tokens.length + 1);
    const blob = out.subarray(ints * 4, ints * 4 + blobBytes);
    let at = 0;
    tokens.forEach((token, i) => {
      ranks[i] = token.rank;
      offsets[i] = at;
      token.bytes.copy(blob, at);
      at += token.bytes.length;
      let slot = hashOf(token.bytes, 0, token.bytes.length) & (slotCount - 1);
      while (slots[slot] !== 0) slot = (slot + 1) & (slotCount - 1);
      slots[slot] = i + 1;
    });
    offsets[tokens.length] = at;
    patternBytes.copy(out, ints * 4 + blobBytes);
    return out;
  }

  static decode(data: Buffer): HashedRanks {
    // Int32Array views need 4-byte alignment.
    const aligned = data.byteOffset % 4 === 0 ? data : Buffer.from(data);
    const header = new Int32Array(aligned.buffer, aligned.byteOffset, HEADER_INTS);
    const [magic, count, slotCount, blobBytes, patternBytes] = header;
    if (magic !== MAGIC) throw new Error('not an o200k rank file');
    const ints = HEADER_INTS + count + count + 1 + slotCount;
    if (aligned.length !== ints * 4 + blobBytes + patternBytes) throw new Error('truncated o200k rank file');
    const view = new Int32Array(aligned.buffer, aligned.byteOffset, ints);
    return new HashedRanks(
      view.subarray(HEADER_INTS, HEADER_INTS + count),
      view.subarray(HEADER_INTS + count, HEADER_INTS + 2 * count + 1),
      view.subarray(HEADER_INTS + 2 * count + 1),
      aligned.subarray(ints * 4, ints * 4 + blobBytes),
      aligned.subarray(ints * 4 + blobBytes).toString('utf8'),
    );
  }

  /** The file the build writes beside this module, or undefined when it is not there (running the sources). */
  static readBuilt(): HashedRanks | undefined {
    let data: Buffer;
    try {
      data = readFileSync(BUILT_RANK_FILE);
    } catch {
      return undefined;
    }
    return HashedRanks.decode(data);
  }
}

/** A lookup over the Map form of the table (what rank-table.ts reads from js-tiktoken). */
export function mapLookup(table: Map<string, number>): RankLookup {
  return {
    rank: (bytes, from, to) => {
      const view = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
      return table.get(view.toString('latin1', from, to)) ?? -1;
    },
  };
}
