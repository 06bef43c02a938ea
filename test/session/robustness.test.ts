// Property-style tests of the reader on damaged input: whatever bytes a log holds (truncated or
// glued lines, invalid UTF-8, CRLF, huge lines, no final newline), openSession does not throw and
// an unmodified session writes back byte for byte. Randomness is seeded, so a failure repeats.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession, sessionBytes } from '../../src/session/session.js';
import { readRawLines, splitRawLines, type RawLine } from '../../src/session/line-reader.js';
import { corpusFiles, sampleFiles } from '../helpers/corpus.js';
import { seededRandom } from '../../bench/mutate.js';

/** A seeded PRNG (mulberry32, shared with the fuzz bench): random cases are repeatable. */
const prng = seededRandom;

function intBelow(random: () => number, n: number): number {
  return Math.floor(random() * n);
}

function pick<T>(random: () => number, items: T[]): T {
  return items[intBelow(random, items.length)];
}

const FALLBACK_LINES = [
  '{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"héllo wörld ✓ 日本語"},"uuid":"u1","sessionId":"s1","timestamp":"2026-01-01T00:00:00.000Z"}',
  '{"parentUuid":"u1","isSidechain":false,"type":"assistant","message":{"id":"msg_1","model":"claude-x","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Read","input":{"file_path":"/a.ts"}}],"usage":{"input_tokens":3,"cache_creation_input_tokens":10,"cache_read_input_tokens":100,"output_tokens":5}},"requestId":"req_1","uuid":"a1","sessionId":"s1"}',
  '{"parentUuid":"a1","isSidechain":false,"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"1\\tconst a = 1;"}]},"uuid":"u2","sessionId":"s1"}',
  '{"type":"summary","summary":"A session","leafUuid":"u2"}',
];

/** Whole JSON-object lines from real logs (and the samples), to damage at random. */
function sourceLines(): string[] {
  const lines: string[] = [];
  const files = [
    ...corpusFiles()
      .filter((f) => !f.includes('3MB'))
      .slice(0, 12),
    ...sampleFiles(),
  ];
  for (const file of files) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.length === 0 || line.length > 200_000) continue;
      try {
        JSON.parse(line);
        lines.push(line);
      } catch {
        // a glued line: not a clean source
      }
    }
  }
  return lines.length > 0 ? lines : FALLBACK_LINES;
}

type Piece = { kind: 'record' | 'crlf'; bytes: Buffer } | { kind: 'truncated'; bytes: Buffer } | { kind: 'glued'; bytes: Buffer } | { kind: 'blank' | 'invalid-utf8' | 'noise'; bytes: Buffer };

function randomPiece(random: () => number, lines: string[]): Piece {
  const line = Buffer.from(pick(random, lines));
  switch (intBelow(random, 8)) {
    case 0:
    case 1:
      return { kind: 'record', bytes: line };
    case 2: // cut anywhere, also inside a multi-byte character
      return { kind: 'truncated', bytes: line.subarray(0, intBelow(random, line.length - 1) + 1) };
    case 3: // two records written without a newline between them, as Claude Code once did
      return { kind: 'glued', bytes: Buffer.concat([line, Buffer.from(pick(random, lines))]) };
    case 4:
      return { kind: 'blank', bytes: Buffer.from(pick(random, ['', ' ', '\t', '\r', '  \r'])) };
    case 5:
      return { kind: 'crlf', bytes: Buffer.concat([line, Buffer.from('\r')]) };
    case 6: {
      const at = intBelow(random, line.length);
      const bad = Buffer.from(pick(random, [[0xff], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x00]]));
      return { kind: 'invalid-utf8', bytes: Buffer.concat([line.subarray(0, at), bad, line.subarray(at)]) };
    }
    default: {
      const noise = Buffer.alloc(intBelow(random, 300));
      // Any byte but '\n', so pieces and physical lines stay one to one.
      for (let i = 0; i < noise.length; i++) {
        const byte = intBelow(random, 255);
        noise[i] = byte < 0x0a ? byte : byte + 1;
      }
      return { kind: 'noise', bytes: noise };
    }
  }
}

async function collect(lines: AsyncIterable<RawLine>): Promise<RawLine[]> {
  const all: RawLine[] = [];
  for await (const line of lines) all.push({ ...line, bytes: Buffer.from(line.bytes) });
  return all;
}

describe('reading damaged logs', () => {
  let dir: string;
  let lines: string[];
  let fileNo = 0;
  const write = async (data: Buffer | string) => {
    const path = join(dir, `case-${fileNo++}.jsonl`);
    await writeFile(path, data);
    return path;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cmv-robust-'));
    lines = sourceLines();
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('never throws and writes back byte-identical on 150 random damaged files', async () => {
    const random = prng(0xc0ffee);
    for (let round = 0; round < 150; round++) {
      const pieces = Array.from({ length: 1 + intBelow(random, 25) }, () => randomPiece(random, lines));
      const terminated = random() < 0.7;
      const data = Buffer.concat([...pieces.flatMap((p, i) => (i < pieces.length - 1 || terminated ? [p.bytes, Buffer.from('\n')] : [p.bytes]))]);
      const path = await write(data);
      const context = `round ${round}: ${pieces.map((p) => p.kind).join(',')}${terminated ? '' : ' (no final newline)'}`;

      const session = await openSession(path, { findSubagents: false });
      expect(sessionBytes(session).equals(data), context).toBe(true);
      expect(session.lines.length, context).toBe(splitRawLines(data).length);

      // What is certain about each kind of damage, independent of the reader:
      pieces.forEach((piece, i) => {
        const line = session.lines[i];
        if (!line) return; // an empty last piece without newline is no line at all
        if (piece.kind === 'record' || piece.kind === 'crlf') expect(line.status, `${context} line ${i + 1}`).toBe('entry');
        if (piece.kind === 'glued') {
          expect(line.status, `${context} line ${i + 1}`).toBe('glued');
          expect(line.entries, `${context} line ${i + 1}`).toHaveLength(2);
        }
        if (piece.kind === 'truncated') expect(line.status, `${context} line ${i + 1}`).toBe('malformed');
        if (piece.kind === 'blank' && piece.bytes.length > 0) expect(line.status).toBe('blank');
      });
      expect(session.malformedLines.every((n) => session.lines[n - 1].status === 'malformed')).toBe(true);
    }
  });

  it('splits lines the same with 7-byte (and other tiny) chunks as in memory', async () => {
    const random = prng(7);
    // Byte-sized reads cost a read call per byte: lines under 1 KB are still many chunks long each.
    const shortLines = lines.filter((line) => line.length < 1024);
    expect(shortLines.length).toBeGreaterThan(3);
    for (let round = 0; round < 40; round++) {
      const pieces = Array.from({ length: intBelow(random, 12) }, () => randomPiece(random, shortLines).bytes);
      const data = Buffer.concat(pieces.flatMap((p) => [p, Buffer.from(random() < 0.2 ? '\n\n' : '\n')]).slice(0, random() < 0.5 ? undefined : -1));
      const path = await write(data);
      const chunk = pick(random, [1, 2, 7, 13, 64, 4096]);
      const expected = splitRawLines(data).map((l) => ({ ...l, bytes: Buffer.from(l.bytes) }));
      expect(await collect(readRawLines(path, { chunkBytes: chunk })), `round ${round}, chunk ${chunk}`).toEqual(expected);
    }
  });

  it('splits the same when its two read buffers are recycled, each line copied before the next is asked for', async () => {
    const random = prng(11);
    // Byte-sized read chunks: lines under 1 KB keep it to a second (2.1.332 writes 50 KB attachments).
    const shortLines = lines.filter((line) => line.length < 1024);
    expect(shortLines.length).toBeGreaterThan(3);
    for (let round = 0; round < 40; round++) {
      const pieces = Array.from({ length: 4 + intBelow(random, 12) }, () => randomPiece(random, shortLines).bytes);
      const data = Buffer.concat(pieces.flatMap((p) => [p, Buffer.from('\n')]));
      const path = await write(data);
      const chunk = pick(random, [1, 7, 13, 64]);
      const expected = splitRawLines(data).map((l) => ({ ...l, bytes: Buffer.from(l.bytes) }));
      expect(await collect(readRawLines(path, { chunkBytes: chunk, recycle: true })), `round ${round}, chunk ${chunk}`).toEqual(expected);
    }
  }, 90_000);

  it('reads from a line start on as the lines from there, numbered and placed as in the whole file', async () => {
    const random = prng(12);
    for (let round = 0; round < 20; round++) {
      const pieces = Array.from({ length: 3 + intBelow(random, 10) }, () => randomPiece(random, lines).bytes);
      const data = Buffer.concat(pieces.flatMap((p) => [p, Buffer.from('\n')]));
      const path = await write(data);
      const all = splitRawLines(data).map((l) => ({ ...l, bytes: Buffer.from(l.bytes) }));
      const first = intBelow(random, all.length);
      const chunk = pick(random, [1, 7, 64, 4096]);
      const from = { offset: all[first].offset, index: first };
      expect(await collect(readRawLines(path, { chunkBytes: chunk, from })), `round ${round}, from line ${first}`).toEqual(all.slice(first));
    }
  });

  it('splits real logs the same with 7-byte chunks as in memory', async () => {
    const files = [...corpusFiles(), ...sampleFiles()].filter((f) => readFileSync(f).length < 40_000).slice(0, 5);
    for (const file of files) {
      const expected = splitRawLines(readFileSync(file)).map((l) => ({ ...l, bytes: Buffer.from(l.bytes) }));
      expect(await collect(readRawLines(file, { chunkBytes: 7 })), file).toEqual(expected);
    }
  });

  it('opens an empty file as a session with no lines and writes back nothing', async () => {
    const session = await openSession(await write(''), { findSubagents: false });
    expect(session.lines).toEqual([]);
    expect(session.conversation.entries).toEqual([]);
    expect(session.conversation.leaf).toBeUndefined();
    expect(sessionBytes(session).length).toBe(0);
  });

  it('keeps blank lines (empty, spaces, a lone CR) as blank lines', async () => {
    const data = `\n${FALLBACK_LINES[0]}\n\n   \n\r\n${FALLBACK_LINES[1]}\n\n`;
    const session = await openSession(await write(data), { findSubagents: false });
    expect(session.lines.map((l) => l.status)).toEqual(['blank', 'entry', 'blank', 'blank', 'blank', 'entry', 'blank']);
    expect(session.malformedLines).toEqual([]);
    expect(sessionBytes(session).toString()).toBe(data);
  });

  it('keeps a missing final newline missing', async () => {
    const data = FALLBACK_LINES.join('\n');
    const session = await openSession(await write(data), { findSubagents: false });
    expect(session.lines.map((l) => l.terminated)).toEqual([true, true, true, false]);
    expect(session.conversation.entries).toHaveLength(4);
    expect(sessionBytes(session).toString()).toBe(data);
  });

  it('parses CRLF lines and writes their CRs back', async () => {
    const data = `${FALLBACK_LINES.join('\r\n')}\r\n`;
    const session = await openSession(await write(data), { findSubagents: false });
    expect(session.lines.map((l) => l.status)).toEqual(['entry', 'entry', 'entry', 'entry']);
    expect(session.conversation.toolPairs).toHaveLength(1);
    expect(sessionBytes(session).toString()).toBe(data);
  });

  it('reads a 5 MB single line that spans read chunks, with and without a final newline', async () => {
    const text = 'x'.repeat(5 * 1024 * 1024);
    const record = JSON.stringify({ type: 'user', uuid: 'big', parentUuid: null, message: { role: 'user', content: text } });
    for (const data of [record, `${record}\n`, `${FALLBACK_LINES[0]}\n${record}\n${FALLBACK_LINES[3]}`]) {
      const session = await openSession(await write(data), { findSubagents: false });
      const big = session.conversation.entries.find((e) => e.uuid === 'big');
      expect(big?.blocks.map((b) => [b.type, b.chars])).toEqual([['text', text.length]]);
      expect(sessionBytes(session).equals(Buffer.from(data))).toBe(true);
    }
  });

  it('reports a 5 MB line of garbage as malformed and keeps it', async () => {
    const data = Buffer.concat([Buffer.from(`${FALLBACK_LINES[0]}\n{"type":"user","message":"`), Buffer.alloc(5 * 1024 * 1024, 0xff), Buffer.from('\n')]);
    const session = await openSession(await write(data), { findSubagents: false });
    expect(session.malformedLines).toEqual([2]);
    expect(sessionBytes(session).equals(data)).toBe(true);
  });

  it('keeps bytes that are not UTF-8 exactly, in and outside JSON strings', async () => {
    const data = Buffer.concat([
      Buffer.from('{"type":"user","uuid":"u1","message":{"role":"user","content":"a'),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from('b"}}\n'),
      Buffer.from([0x80, 0x81, 0x0a]),
    ]);
    const session = await openSession(await write(data), { findSubagents: false });
    expect(session.lines.map((l) => l.status)).toEqual(['entry', 'malformed']);
    expect(sessionBytes(session).equals(data)).toBe(true);
  });

  it('does not throw on JSON that is not a record: arrays, strings, numbers, null, deep nesting', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const deepRecord = `{"type":"user","uuid":"d","message":{"role":"user","content":[${'['.repeat(50_000)}${']'.repeat(50_000)}]}}`;
    const data = ['[]', '"text"', '42', 'null', '{}', '[1][2]', '{"a":1}{"b":', deep, deepRecord, `${'{"a":'.repeat(50_000)}1`].join('\n');
    const session = await openSession(await write(data), { findSubagents: false });
    expect(sessionBytes(session).toString()).toBe(data);
    expect(session.lines.find((l) => l.entries.some((e) => e.uuid === 'd'))?.status).toBe('entry');
  });
});
