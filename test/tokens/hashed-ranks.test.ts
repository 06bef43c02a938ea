// The build's binary rank table must be the same table as js-tiktoken's: every token found at its
// rank, nothing else found, and counts equal to the Map form on real text.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadO200k } from '../../src/tokens/rank-table.js';
import { HashedRanks, mapLookup } from '../../src/tokens/hashed-ranks.js';
import { BytePairCounter } from '../../src/tokens/byte-pair.js';
import { corpusFiles, HAS_CORPUS } from '../helpers/corpus.js';

const { ranks, pattern } = loadO200k();
const hashed = HashedRanks.decode(HashedRanks.encode(ranks, pattern));

describe('HashedRanks', () => {
  it('finds every token of the table at its rank, and keeps the pattern', () => {
    // One expect for the whole table: 200,000 of them cost seconds on their own.
    let checked = 0;
    const wrong: string[] = [];
    for (const [key, rank] of ranks) {
      const bytes = Buffer.from(key, 'latin1');
      const found = hashed.rank(bytes, 0, bytes.length);
      if (found !== rank && wrong.length < 20) wrong.push(`${JSON.stringify(key)}: ${found}, not ${rank}`);
      checked++;
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(199_000);
    expect(hashed.pattern).toBe(pattern);
  });

  it('finds nothing for byte strings that are not tokens, and reads ranges inside a larger buffer', () => {
    const bytes = Buffer.from('xx::not-a-token-at-all-zzqqj::xx');
    expect(hashed.rank(bytes, 2, bytes.length - 2)).toBe(-1);
    const inside = Buffer.from('((hello))');
    expect(hashed.rank(inside, 2, 7)).toBe(ranks.get('hello'));
  });

  it('refuses a truncated or foreign file', () => {
    const data = HashedRanks.encode(ranks, pattern);
    expect(() => HashedRanks.decode(data.subarray(0, data.length - 1))).toThrow(/truncated/);
    expect(() => HashedRanks.decode(Buffer.alloc(64))).toThrow(/not an o200k/);
  });

  it.skipIf(!HAS_CORPUS)('counts real session text exactly as the Map form does', () => {
    const regex = new RegExp(pattern, 'gu');
    const fromMap = new BytePairCounter(mapLookup(ranks));
    const fromHash = new BytePairCounter(hashed);
    let pieces = 0;
    for (const file of corpusFiles().slice(0, 6)) {
      const text = readFileSync(file, 'utf8').slice(0, 400_000);
      for (const match of text.matchAll(regex)) {
        const bytes = Buffer.from(match[0], 'utf8');
        expect(fromHash.count(bytes)).toBe(fromMap.count(bytes));
        pieces++;
      }
    }
    expect(pieces).toBeGreaterThan(10_000);
  });
});
