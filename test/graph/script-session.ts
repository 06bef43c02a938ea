// Sessions written from a short script, in the shape Claude Code records them: prompts, assistant
// texts, tool calls with their results (errors as `is_error` with "Exit code N"), one line each,
// chained by parentUuid. For tests of single extraction rules.

import { parseLine } from '../../src/session/entry.js';
import { sessionFromLines, type Session } from '../../src/session/session.js';
import type { SessionLine } from '../../src/session/conversation.js';

export type ScriptStep = { user: string } | { assistant: string } | { tool: string; input: Record<string, unknown>; result?: string; isError?: boolean; sidecar?: Record<string, unknown> };

export const SCRIPT_CWD = '/home/me/app';

export function scriptRecords(steps: ScriptStep[], sessionId = '5c1e0000-0000-4000-8000-000000000001'): Record<string, unknown>[] {
  let parent: string | null = null;
  let n = 0;
  let ms = Date.parse('2026-04-01T09:00:00.000Z');
  const records: Record<string, unknown>[] = [];
  const add = (record: Record<string, unknown>) => {
    const uuid = `5c1e0000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
    records.push({
      parentUuid: parent,
      isSidechain: false,
      userType: 'external',
      cwd: SCRIPT_CWD,
      sessionId,
      version: '2.1.100',
      gitBranch: 'main',
      ...record,
      uuid,
      timestamp: new Date((ms += 1000)).toISOString(),
    });
    parent = uuid;
  };
  const assistant = (content: unknown[]) =>
    add({
      type: 'assistant',
      message: {
        id: `msg_${n + 1}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content,
        usage: { input_tokens: 10, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
      requestId: `req_${n + 1}`,
    });
  for (const step of steps) {
    if ('user' in step) add({ type: 'user', message: { role: 'user', content: step.user } });
    else if ('assistant' in step) assistant([{ type: 'text', text: step.assistant }]);
    else {
      const id = `toolu_${String(n + 1).padStart(6, '0')}`;
      assistant([{ type: 'tool_use', id, name: step.tool, input: step.input }]);
      const result = step.result ?? 'ok';
      add({
        type: 'user',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: result, ...(step.isError ? { is_error: true } : {}) }] },
        ...(step.sidecar ? { toolUseResult: step.sidecar } : {}),
      });
    }
  }
  return records;
}

export function scriptSession(steps: ScriptStep[]): Session {
  return sessionOfRecords(scriptRecords(steps));
}

export function sessionOfRecords(records: Record<string, unknown>[]): Session {
  const lines: SessionLine[] = [];
  let offset = 0;
  records.forEach((record, index) => {
    const bytes = Buffer.from(JSON.stringify(record));
    const parsed = parseLine(bytes, index);
    lines.push({ index, offset, bytes, length: bytes.length, terminated: true, status: parsed.status, entries: parsed.entries, error: parsed.error });
    offset += bytes.length + 1;
  });
  return sessionFromLines('/tmp/script-session.jsonl', offset, lines);
}
