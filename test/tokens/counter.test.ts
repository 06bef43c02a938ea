// countTokens against js-tiktoken's own o200k_base encoder: the same count on every kind of text,
// and a count (not a hang) on the inputs that make js-tiktoken's merge quadratic.

import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { countTokens, countTokensExact } from '../../src/tokens/counter.js';
import { corpusFile, HAS_CORPUS } from '../helpers/corpus.js';

const ORDINARY: Record<string, string> = {
  prose: 'The January report from tally is missing expenses: anything dated on the 31st does not show up in the totals. Could you find out why?',
  code: [
    'export async function* readRawLines(path: string, chunkBytes = CHUNK_BYTES): AsyncGenerator<RawLine> {',
    '  for (let i = 0; i < data.length; i++) if (data[i] === 0x0a) yield { index: n++, bytes: data.subarray(s, i) };',
    '}',
    'def total(rows):\n    return sum(Decimal(r["amount"]) for r in rows if r["day"] <= 31)  # was < 31',
  ].join('\n'),
  unicode: 'Grüße aus Köln — naïve café, 東京の天気は晴れ, Привет мир, مرحبا بالعالم, 🎉🚀 ✓ ⎿ │ ├── src/',
  json: JSON.stringify({ file_path: '/home/me/app/src/index.ts', old_string: 'a < 31', new_string: 'a <= 31', replace_all: false }),
  whitespace: 'line one\n\n\n    indented\t\ttabs\r\n  trailing   \n',
  numbers: '3.14159 2026-03-02T10:00:00.000Z 0x7fffffff 1e-9 1234567890123',
};

describe('countTokens', () => {
  for (const [kind, text] of Object.entries(ORDINARY)) {
    it(`counts ${kind} exactly as js-tiktoken does`, () => {
      expect(countTokens(text)).toBe(countTokensExact(text));
      expect(countTokens(text)).toBeGreaterThan(0);
    });
  }

  it('counts 1,000-character runs of one character exactly, letters, digits, spaces and punctuation alike', () => {
    // Runs far longer than any token, and short enough that js-tiktoken's quadratic merge is quick.
    for (const ch of ['a', 'x', '0', ' ', '\n', '\t', '-', '=', '*', '#']) {
      const run = ch.repeat(1000);
      expect(countTokens(run), JSON.stringify(ch)).toBe(countTokensExact(run));
    }
    // Multi-byte runs are shorter only because js-tiktoken takes seconds on 2,000 of them.
    for (const run of ['日'.repeat(300), '😀'.repeat(150)]) expect(countTokens(run)).toBe(countTokensExact(run));
  });

  it('counts 2,000-character stretches of real text exactly', () => {
    const text = Object.values(ORDINARY).join('\n').repeat(8).slice(0, 2000);
    expect(text).toHaveLength(2000);
    expect(countTokens(text)).toBe(countTokensExact(text));
  });

  it('counts base64 and hex exactly', () => {
    const bytes = randomBytes(3000);
    for (const text of [bytes.toString('base64'), bytes.toString('hex')]) expect(countTokens(text)).toBe(countTokensExact(text));
  });

  it('returns a positive count for a 50,000-character run of one character', () => {
    const n = countTokens('z'.repeat(50_000));
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(50_000);
  });

  it('returns a positive count for 300 KB of base64', () => {
    const base64 = randomBytes(225_000).toString('base64');
    expect(base64.length).toBe(300_000);
    expect(countTokens(base64)).toBeGreaterThan(base64.length / 8);
  });

  it('returns the same count when asked again (memoised), for short and long texts', () => {
    for (const text of ['short', ORDINARY.code.repeat(10), randomBytes(5000).toString('base64')]) {
      const first = countTokens(text);
      expect(countTokens(text)).toBe(first);
    }
  });

  it('counts every short ASCII piece exactly, control characters included, whatever was counted before', () => {
    // Pieces of 2 to 4 ASCII characters are memoised by a number made of their characters: pieces
    // that differ only by a NUL, DEL or their length must not share one.
    const pieces = ['ab', '\u0000ab', 'ab\u0000', ' ab', '\u007fab', ' \u0000\u0000', '\u0000\u0000', '!!', '!!!', '!!!!', ' the', 'the', 'The', " 's", '123', '));', '\t\t\t'];
    for (const piece of pieces) expect(countTokens(`${piece}\n${piece}`), JSON.stringify(piece)).toBe(countTokensExact(`${piece}\n${piece}`));
    const text = pieces.join(' ');
    expect(countTokens(text)).toBe(countTokensExact(text));
  });

  it('counts zero tokens in the empty string', () => {
    expect(countTokens('')).toBe(0);
  });

  it('counts text that spells a special token as ordinary text instead of throwing', () => {
    expect(countTokens('the model ends with <|endoftext|> and <|endofprompt|>')).toBeGreaterThan(10);
  });

  it.skipIf(!HAS_CORPUS)('counts every text block of a real session exactly', () => {
    let checked = 0;
    for (const line of readFileSync(corpusFile('spotter-tool_heavy-v2.1.38.jsonl'), 'utf8').split('\n')) {
      if (!line) continue;
      const content = JSON.parse(line).message?.content;
      const texts = typeof content === 'string' ? [content] : Array.isArray(content) ? content.map((b) => b.text ?? b.thinking ?? JSON.stringify(b)) : [];
      for (const text of texts) {
        expect(countTokens(text)).toBe(countTokensExact(text));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});
