// The replaced text of an applied edit (issue 16): when the edit's result says it applied, its
// old_string goes (the file then held the new text, which the call still shows), whether or not
// the project's files are on this machine. A failed edit, a deletion and a small edit stay whole.

import { afterAll, describe, expect, it } from 'vitest';
import { trimSession } from '../../src/trim/trim.js';
import { SessionBuilder, CWD, recordsOf, removeWrittenSessions, type Json } from './session-builder.js';

afterAll(removeWrittenSessions);

const lines = (n: number, word: string) => Array.from({ length: n }, (_, i) => `  const ${word}${i} = step(${i}); // ${word}`).join('\n');
const APPLIED = 'The file /tmp/cmv-rules/app/src/steps.ts has been updated successfully.';
const STUB = /^\[cmv: \d+ lines replaced\]$/;

function inputOf(records: Json[], id: string): Json {
  for (const r of records) for (const block of r.message?.content ?? []) if (block?.type === 'tool_use' && block.id === id) return block.input;
  throw new Error(`no tool_use ${id}`);
}

const cases: { name: string; input: Json; result: string; isError?: boolean; stubbed: boolean }[] = [
  { name: 'an applied edit', input: { old_string: lines(20, 'old'), new_string: lines(20, 'new') }, result: APPLIED, stubbed: true },
  { name: 'a failed edit', input: { old_string: lines(20, 'old'), new_string: lines(20, 'new') }, result: 'String to replace not found in file.', isError: true, stubbed: false },
  { name: 'a deletion', input: { old_string: lines(20, 'old'), new_string: '' }, result: APPLIED, stubbed: false },
  { name: 'a small edit', input: { old_string: 'a < b', new_string: 'a <= b' }, result: APPLIED, stubbed: false },
];

describe('applied edits, the project absent', () => {
  for (const c of cases) {
    it(`${c.name}: old_string ${c.stubbed ? 'stubbed' : 'kept whole'}, new_string kept`, async () => {
      const b = new SessionBuilder();
      b.user('Rewrite the steps.');
      const edit = b.toolCall('Edit', { file_path: `${CWD}/src/steps.ts`, ...c.input }, c.result, { isError: c.isError });
      b.assistant([{ type: 'text', text: 'Done.' }]);
      const result = await trimSession(b.write(), {}, { fileHolds: () => false });
      expect(result.verify.faults).toEqual([]);
      const input = inputOf(recordsOf(result.lines), edit.id);
      if (c.stubbed) expect(input.old_string).toMatch(STUB);
      else expect(input.old_string).toBe(c.input.old_string);
      expect(input.new_string).toBe(c.input.new_string);
      expect(result.removed.toolInputsStubbed).toBe(c.stubbed ? 1 : 0);
    });
  }

  it('stubs each edit of an applied MultiEdit, and a second trim changes nothing', async () => {
    const b = new SessionBuilder();
    b.user('Rewrite both blocks.');
    const edits = [
      { old_string: lines(12, 'a'), new_string: lines(12, 'b') },
      { old_string: 'x', new_string: 'y' },
    ];
    const call = b.toolCall('MultiEdit', { file_path: `${CWD}/src/steps.ts`, edits }, 'Applied 2 edits to /tmp/cmv-rules/app/src/steps.ts');
    const path = b.write();
    const once = await trimSession(path, {}, { fileHolds: () => false });
    const input = inputOf(recordsOf(once.lines), call.id);
    expect(input.edits[0].old_string).toMatch(STUB);
    expect(input.edits[1].old_string).toBe('x');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${path}.once.jsonl`, once.lines.map((l) => `${l}\n`).join(''));
    const twice = await trimSession(`${path}.once.jsonl`, {}, { fileHolds: () => false });
    expect(twice.lines.map(String)).toEqual(once.lines.map(String));
  });
});
