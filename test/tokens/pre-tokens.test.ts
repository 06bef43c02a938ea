// The ASCII pre-tokenizer against o200k's own pattern: wherever it decides a piece, the pattern
// finds the same piece; where a character is not ASCII it leaves the piece to the pattern.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { asciiPieceEnd } from '../../src/tokens/pre-tokens.js';
import { loadO200k } from '../../src/tokens/rank-table.js';
import { allCorpusFiles, HAS_CORPUS } from '../helpers/corpus.js';

const pattern = new RegExp(loadO200k().pattern, 'uy');

/** Pieces the pattern finds where asciiPieceEnd finds others; and how many it decided. */
function disagreements(text: string): { wrong: string[]; decided: number } {
  const wrong: string[] = [];
  let decided = 0;
  for (let start = 0; start < text.length;) {
    pattern.lastIndex = start;
    const end = start + pattern.exec(text)![0].length;
    const ours = asciiPieceEnd(text, start);
    if (ours >= 0) {
      decided++;
      if (ours !== end) wrong.push(`${JSON.stringify(text.slice(start, end))} split as ${JSON.stringify(text.slice(start, ours))} in ${JSON.stringify(text.slice(Math.max(0, start - 10), end + 10))}`);
    }
    start = end;
  }
  return { wrong, decided };
}

const EDGES = [
  "HTMLParser parses XMLHttpRequest's body; I'LL do it, they're here, we've, I'm, he'd, it'S",
  "don't 'twas x'y 'll' A'RE B'Ve",
  '  leading\t\ttabs\n\n\n   \r\n  trailing   \n\t',
  'a  b   c\t d \x0b\x0ce\x0c',
  '((foo)) }};\n/** comment */\n//x\n/\n/y ./a ../b /c',
  ' .x .5 $1 #a @B _c -D',
  '1234567 12 3 4x5 x45 0.125e-10',
  'end with spaces   ',
  'end with a newline and spaces\n   ',
  '\x00\x01\x1f\x7f ctrl\x1ftext',
  'caf\u00e9 na\u00efve \u00a0nbsp\u00a0 \u2014dash\u2014 x\u0301 \u00b2\u00b3 \u0661\u0662\u0663 \u65e5\u672c\u8a9e\u3002 emoji \ud83d\ude00 a\u3000b',
  "\u00c9cole DON\u2019T don\u2019t o'\u00e9 'S\u00e9",
];

describe('asciiPieceEnd', () => {
  it('splits edge cases of every branch of the pattern as the pattern does', () => {
    for (const text of EDGES) expect(disagreements(text).wrong, text).toEqual([]);
  });

  it('splits random strings of every character class as the pattern does', () => {
    const alphabet = ['a', 'z', 'A', 'Q', '0', '9', ' ', ' ', '\t', '\n', '\r', '\x0b', "'", 's', 'L', '/', '.', '(', '_', '\u00e9', '\u00a0', '\u0661', '\u4e00', '\ud83d\ude00'];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x80000000;
    for (let n = 0; n < 3000; n++) {
      let text = '';
      const length = 1 + Math.floor(random() * 24);
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
      expect(disagreements(text).wrong, JSON.stringify(text)).toEqual([]);
    }
  });

  it.skipIf(!HAS_CORPUS)(
    'splits every line of the corpus as the pattern does, deciding almost every piece itself',
    () => {
      let decided = 0;
      let pieces = 0;
      for (const file of allCorpusFiles()) {
        for (const line of readFileSync(file, 'utf8').split('\n')) {
          const texts: string[] = [];
          try {
            JSON.stringify(JSON.parse(line), (_key, value: unknown) => (typeof value === 'string' && value.length > 0 ? (texts.push(value), value) : value));
          } catch {
            // a malformed line is split as it is
          }
          for (const text of texts) {
            const { wrong, decided: d } = disagreements(text);
            expect(wrong, file).toEqual([]);
            decided += d;
          }
          pieces += texts.length;
        }
      }
      expect(pieces).toBeGreaterThan(10_000);
      expect(decided).toBeGreaterThan(1_000_000);
    },
    120_000,
  );
});
