// historyAsIs (the PreCompact hook's trim): with keepHistory, the lines before the compaction the
// resumed path starts from are copied byte for byte, unread; only what follows is stripped, and
// the result verifies like any trim. When the resumed path does not start there, every line is
// stripped as with keepHistory alone.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { trimSession } from '../../src/trim/trim.js';
import { AtomicWriter } from '../../src/session/write.js';
import { SessionBuilder, readOutput, removeWrittenSessions, recordsOf, byUuid, CWD } from './session-builder.js';

afterAll(removeWrittenSessions);

const joined = (lines: Buffer[]) => Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')]));

function compactedSession(): { b: SessionBuilder; boundaryText: string; before: string; after: string } {
  const b = new SessionBuilder();
  b.user('Read the parser.');
  b.toolCall('Read', { file_path: `${CWD}/src/parser.ts` }, readOutput(80));
  b.progress();
  b.assistant([
    { type: 'thinking', thinking: 'The parser is recursive.', signature: 'c2ln' },
    { type: 'text', text: 'The parser is recursive descent.' },
  ]);
  const { boundary } = b.compact('1. The user asked about the parser.');
  b.user('Now read the lexer.');
  const after = b.toolCall('Read', { file_path: `${CWD}/src/lexer.ts` }, readOutput(80));
  b.assistant([{ type: 'text', text: 'The lexer is table driven.' }]);
  return { b, boundaryText: JSON.stringify(boundary), before: 'The parser is recursive descent.', after: after.id };
}

describe('historyAsIs', () => {
  it('copies the lines before the resumed compaction byte for byte and strips only what follows', async () => {
    const { b } = compactedSession();
    const path = b.write();
    const input = readFileSync(path);
    const boundaryAt = input.indexOf('"compact_boundary"');
    const prefixEnd = input.lastIndexOf(10, boundaryAt) + 1;

    const asIs = await trimSession(path, { keepHistory: true, historyAsIs: true });
    expect(asIs.verify.faults).toEqual([]);
    const output = joined(asIs.lines);
    expect(output.subarray(0, prefixEnd).equals(input.subarray(0, prefixEnd))).toBe(true);
    // The history keeps its progress line, thinking and sidecars; the resumed part loses them.
    const prefix = input.subarray(0, prefixEnd).toString();
    expect(prefix).toContain('"progress"');
    expect(prefix).toContain('"thinking"');
    const tail = output.subarray(prefixEnd).toString();
    expect(tail).not.toContain('toolUseResult');
    expect(asIs.reduction.tokens).toBeGreaterThan(0);

    // What Claude Code sends is trimmed just as by a keep-history trim that strips every line.
    const full = await trimSession(path, { keepHistory: true });
    expect(asIs.output.tokens).toBe(full.output.tokens);
    expect(asIs.input.tokens).toBe(full.input.tokens);
    expect(asIs.output.bytes).toBeGreaterThan(full.output.bytes);
  });

  it('streams to a file the same bytes it keeps in memory', async () => {
    const { b } = compactedSession();
    const path = b.write();
    const inMemory = await trimSession(path, { keepHistory: true, historyAsIs: true });
    const writer = await AtomicWriter.open(join(path, '..', 'streamed.jsonl'));
    const streamed = await trimSession(path, { keepHistory: true, historyAsIs: true }, { writer });
    await writer.commit();
    expect(streamed.verify.faults).toEqual([]);
    expect(readFileSync(writer.path).equals(joined(inMemory.lines))).toBe(true);
  });

  it('takes the boundary an in-place trim found before its backup; a wrong one still gives a trim that verifies', async () => {
    const { b } = compactedSession();
    const path = b.write();
    const input = readFileSync(path);
    const boundaryAt = input.lastIndexOf(10, input.indexOf('"compact_boundary"')) + 1;
    const plain = await trimSession(path, { keepHistory: true, historyAsIs: true });
    const hinted = await trimSession(path, { keepHistory: true, historyAsIs: true }, { history: { boundary: { bytes: input.length, offset: boundaryAt } } });
    expect(joined(hinted.lines).equals(joined(plain.lines))).toBe(true);
    // Found in other bytes (the log grew since): not taken.
    const stale = await trimSession(path, { keepHistory: true, historyAsIs: true }, { history: { boundary: { bytes: input.length - 1, offset: 0 } } });
    expect(joined(stale.lines).equals(joined(plain.lines))).toBe(true);
    // Wrong for these bytes (none, not a line start, not the resumed one): the history is stripped too, as without historyAsIs.
    const full = await trimSession(path, { keepHistory: true });
    for (const offset of [undefined, 0, boundaryAt + 1]) {
      const wrong = await trimSession(path, { keepHistory: true, historyAsIs: true }, { history: { boundary: { bytes: input.length, offset } } });
      expect(wrong.verify.faults).toEqual([]);
      expect(joined(wrong.lines).equals(joined(full.lines))).toBe(true);
    }
  });

  it('strips every line when the resumed path starts before the last boundary', async () => {
    const { b } = compactedSession();
    // A reply to the history, stamped later than everything: Claude Code resumes that branch.
    const first = b.lines.find((l) => l.type === 'assistant')!;
    b.raw({
      ...first,
      uuid: 'c0ffee00-0000-4000-8000-00000000aaaa',
      message: { ...first.message, id: 'msg_late', content: [{ type: 'text', text: 'A late reply to the history.' }] },
      timestamp: '2099-01-01T00:00:00.000Z',
    });
    const path = b.write();
    const asIs = await trimSession(path, { keepHistory: true, historyAsIs: true });
    const full = await trimSession(path, { keepHistory: true });
    expect(asIs.verify.faults).toEqual([]);
    expect(joined(asIs.lines).equals(joined(full.lines))).toBe(true);
    expect(byUuid(recordsOf(asIs.lines), 'c0ffee00-0000-4000-8000-00000000aaaa')).toBeDefined();
    // Streamed, the history copied while pass 1 read (prefill) is undone: the file is the full trim's.
    const writer = await AtomicWriter.open(join(path, '..', 'streamed-fallback.jsonl'));
    const streamed = await trimSession(path, { keepHistory: true, historyAsIs: true }, { writer });
    expect(writer.prefilled).toBe(0);
    await writer.commit();
    expect(streamed.verify.faults).toEqual([]);
    expect(readFileSync(writer.path).equals(joined(full.lines))).toBe(true);
  });
});
