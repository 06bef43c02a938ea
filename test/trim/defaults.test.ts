// Fields at their default value (src/trim/defaults.ts): the request means the same without them.

import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { trimSession } from '../../src/trim/trim.js';
import { DEFAULT_VALUE_RULES } from '../../src/trim/defaults.js';
import { SessionBuilder, CWD, recordsOf, removeWrittenSessions, type Json } from './session-builder.js';

afterAll(removeWrittenSessions);

function blockOf(records: Json[], type: string, id: string): Json {
  for (const r of records) for (const b of r.message?.content ?? []) if (b?.type === type && (b.id === id || b.tool_use_id === id)) return b;
  throw new Error(`no ${type} ${id}`);
}

describe('fields at their default value', () => {
  it('every rule says why, with an example', () => {
    for (const rule of DEFAULT_VALUE_RULES) {
      expect(rule.why.length).toBeGreaterThan(40);
      expect(rule.example).toContain('->');
    }
  });

  it('drops is_error false and replace_all false; keeps is_error true and replace_all true', async () => {
    const b = new SessionBuilder();
    b.user('Run it, then fix the names.');
    const ok = b.toolCall('Bash', { command: 'true', description: 'Run it' }, 'done');
    // Claude Code records is_error: false on Bash results.
    ok.result.message.content[0].is_error = false;
    const failed = b.toolCall('Bash', { command: 'false', description: 'Fail' }, 'Exit code 1', { isError: true });
    const once = b.toolCall('Edit', { file_path: `${CWD}/a.ts`, old_string: 'a', new_string: 'b', replace_all: false }, 'The file has been updated successfully.');
    const all = b.toolCall('Edit', { file_path: `${CWD}/a.ts`, old_string: 'c', new_string: 'd', replace_all: true }, 'The file has been updated successfully.');
    const multi = b.toolCall('MultiEdit', { file_path: `${CWD}/a.ts`, edits: [{ old_string: 'e', new_string: 'f', replace_all: false }] }, 'Applied 1 edit');
    b.assistant([{ type: 'text', text: 'Done.' }]);
    const path = b.write();
    const result = await trimSession(path, {}, { fileHolds: () => false });
    expect(result.verify.ok, JSON.stringify(result.verify.faults)).toBe(true);
    const records = recordsOf(result.lines);
    expect('is_error' in blockOf(records, 'tool_result', ok.id)).toBe(false);
    expect(blockOf(records, 'tool_result', failed.id).is_error).toBe(true);
    expect('replace_all' in blockOf(records, 'tool_use', once.id).input).toBe(false);
    expect(blockOf(records, 'tool_use', all.id).input.replace_all).toBe(true);
    expect('replace_all' in blockOf(records, 'tool_use', multi.id).input.edits[0]).toBe(false);
    expect(result.removed.defaultValuesDropped).toBe(3);
    writeFileSync(`${path}.once.jsonl`, result.lines.map((l) => `${l}\n`).join(''));
    const twice = await trimSession(`${path}.once.jsonl`, {}, { fileHolds: () => false });
    expect(twice.removed.defaultValuesDropped).toBe(0);
  });
});
