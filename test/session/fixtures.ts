// Small realistic session logs for tests that need a session of a known shape: the records
// Claude Code 2.1.x writes for a prompt, a Read tool call split over two lines, its result and
// an answer, with usage figures on every assistant line.

import { splitRawLines } from '../../src/session/line-reader.js';
import { parseLine } from '../../src/session/entry.js';
import { sessionFromLines, type Session } from '../../src/session/session.js';
import type { SessionLine } from '../../src/session/conversation.js';

export interface FixtureOptions {
  sessionId?: string;
  cwd?: string;
  version?: string;
  model?: string;
  prompt?: string;
  /** Read-and-answer turns after the first prompt (default 1). */
  turns?: number;
  /** First timestamp (ms); each record is one second later. */
  startMs?: number;
}

export const FIXTURE_MODEL = 'claude-sonnet-4-5-20250929';

/** The records of a session: per turn a prompt, a split text+tool_use response, a tool result and an answer. */
export function sessionRecords(options: FixtureOptions = {}): Record<string, unknown>[] {
  const sessionId = options.sessionId ?? '3f2a9c1e-0000-4000-8000-000000000001';
  const cwd = options.cwd ?? '/home/me/my_app';
  const version = options.version ?? '2.1.14';
  const model = options.model ?? FIXTURE_MODEL;
  const turns = options.turns ?? 1;
  let ms = options.startMs ?? Date.parse('2026-03-02T10:00:00.000Z');
  let parent: string | null = null;
  let n = 0;
  const records: Record<string, unknown>[] = [];
  const add = (record: Record<string, unknown>) => {
    const uuid = `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
    records.push({
      parentUuid: parent,
      isSidechain: false,
      userType: 'external',
      cwd,
      sessionId,
      version,
      gitBranch: 'main',
      ...record,
      uuid,
      timestamp: new Date((ms += 1000)).toISOString(),
    });
    parent = uuid;
  };
  const usage = (cacheRead: number, output: number) => ({
    input_tokens: 3,
    cache_creation_input_tokens: 500,
    cache_read_input_tokens: cacheRead,
    output_tokens: output,
    cache_creation: { ephemeral_5m_input_tokens: 500, ephemeral_1h_input_tokens: 0 },
  });
  for (let turn = 0; turn < turns; turn++) {
    const prompt = turn === 0 ? (options.prompt ?? 'Why does the January report miss expenses on the 31st?') : `And what about file ${turn}?`;
    add({ type: 'user', message: { role: 'user', content: prompt } });
    const read = `toolu_01Read${turn}`;
    const path = `/home/me/my_app/src/report${turn}.py`;
    const first = { model, id: `msg_01Tool${turn}`, type: 'message', role: 'assistant', stop_reason: null, stop_sequence: null };
    const cacheRead = 15_000 + turn * 2_000;
    add({ type: 'assistant', requestId: `req_01Tool${turn}`, message: { ...first, content: [{ type: 'text', text: "I'll read the report module." }], usage: usage(cacheRead, 2) } });
    add({
      type: 'assistant',
      requestId: `req_01Tool${turn}`,
      message: { ...first, content: [{ type: 'tool_use', id: read, name: 'Read', input: { file_path: path } }], usage: usage(cacheRead, 48) },
    });
    const fileText = Array.from({ length: 30 }, (_, i) => `${String(i + 1).padStart(6)}\tdef total_{i}(rows): return sum(r.amount for r in rows if r.day < 31)`).join('\n');
    add({
      type: 'user',
      message: { role: 'user', content: [{ tool_use_id: read, type: 'tool_result', content: fileText }] },
      toolUseResult: { type: 'text', file: { filePath: path, content: fileText, numLines: 30, startLine: 1, totalLines: 30 } },
    });
    add({
      type: 'assistant',
      requestId: `req_01Answer${turn}`,
      message: {
        model,
        id: `msg_01Answer${turn}`,
        type: 'message',
        role: 'assistant',
        content: [{ type: 'text', text: 'The filter uses `r.day < 31`, so the 31st is dropped. It should be `<=`.' }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: usage(cacheRead + 900, 120),
      },
    });
  }
  return records;
}

export function toJsonl(records: unknown[]): string {
  return records.map((r) => `${JSON.stringify(r)}\n`).join('');
}

/** A Session built in memory from records, as openSession would build it from a file. */
export function sessionOf(records: unknown[], path = '/virtual/session.jsonl'): Session {
  const data = Buffer.from(toJsonl(records));
  const lines: SessionLine[] = splitRawLines(data).map((raw) => {
    const parsed = parseLine(raw.bytes, raw.index);
    return { ...raw, length: raw.bytes.length, status: parsed.status, entries: parsed.entries, error: parsed.error };
  });
  return sessionFromLines(path, data.length, lines);
}
