// parseLine against the plain reading of a line (JSON.parse, then toEntry): whatever shortcut
// parseLine takes, every real log line must give the same entry.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseLine, toEntry, type SessionEntry } from '../../src/session/entry.js';
import { corpusFiles, sampleFiles } from '../helpers/corpus.js';
import { sessionRecords } from './fixtures.js';

/** The entry as a full JSON.parse sees it, or undefined for a line that is not one record. */
function plainEntry(bytes: Buffer, line: number): SessionEntry | undefined {
  try {
    return toEntry(JSON.parse(bytes.toString('utf8')), line, 0);
  } catch {
    return undefined;
  }
}

/** Payload sizes are estimates (a shortcut may measure bytes, not characters): compare the rest exactly. */
function shape(entry: SessionEntry | undefined) {
  if (!entry) return undefined;
  const { toolUseResultChars, blocks, ...rest } = entry;
  return { ...rest, hasToolUseResult: toolUseResultChars > 0, blocks: blocks.map(({ chars: _, ...block }) => block) };
}

function expectSameAsPlain(bytes: Buffer, context: string) {
  const plain = plainEntry(bytes, 7);
  const parsed = parseLine(bytes, 7);
  if (!plain) return;
  expect(parsed.status, context).toBe('entry');
  expect(shape(parsed.entries[0]), context).toEqual(shape(plain));
}

const realLines = [...corpusFiles(), ...sampleFiles()].flatMap((file) =>
  readFileSync(file)
    .toString('latin1')
    .split('\n')
    .map((text, i) => ({ bytes: Buffer.from(text, 'latin1'), context: `${file.split('/').pop()}:${i + 1}` })),
);

describe('parseLine', () => {
  it('reads every line of the real logs as JSON.parse does', () => {
    let compared = 0;
    for (const { bytes, context } of realLines) {
      if (bytes.length === 0) continue;
      expectSameAsPlain(bytes, context);
      compared++;
    }
    expect(compared).toBeGreaterThan(realLines.length > 0 ? 100 : 0);
  });

  it('reads generated records as JSON.parse does, including escapes, unicode, nulls and spacing', () => {
    const records: unknown[] = [
      ...sessionRecords({ turns: 2 }),
      { type: 'user', uuid: 'u\\"1', parentUuid: null, message: { role: 'user', content: 'line\nbreak "quoted" \\ back\u2028slash é 日本 😀' } },
      { type: 'assistant', uuid: 'a1', parentUuid: 'u1', requestId: null, message: { id: 'msg_1', model: 'm', role: 'assistant', content: [{ type: 'text', text: ' \n\t ' }] } },
      {
        type: 'assistant',
        uuid: 'a2',
        message: {
          id: 'msg_2',
          content: [
            { type: 'text', text: '\u3000'.repeat(600) },
            { type: 'text', text: ` ${'\n'.repeat(700)}x` },
          ],
        },
      },
      // Long blank texts written with escapes (\t, \u000b) or as non-ASCII whitespace are blank too.
      {
        type: 'assistant',
        uuid: 'a5',
        message: {
          id: 'msg_5',
          content: [
            { type: 'text', text: '\t'.repeat(600) },
            { type: 'text', text: '\u000b\u00a0'.repeat(300) },
          ],
        },
      },
      { type: 'user', uuid: 'u4', message: { role: 'user', content: `${'\u2028 '.repeat(300)}` } },
      { type: 'user', uuid: 'u2', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_9', is_error: true, content: [{ type: 'text', text: 'x'.repeat(2000) }] }] } },
      { type: 'user', uuid: 'u3', isSidechain: true, isMeta: true, isCompactSummary: true, isVisibleInTranscriptOnly: true, agentId: 'a1b2', message: { role: 'user', content: [] } },
      { type: 'system', subtype: 'compact_boundary', uuid: 's1', parentUuid: null, logicalParentUuid: 'a2', content: 'Conversation compacted' },
      { type: 'summary', summary: 'A session', leafUuid: 'u3' },
      {
        type: 'assistant',
        uuid: 'a3',
        message: {
          id: 'msg_3',
          usage: { input_tokens: 1e3, output_tokens: 2.5, cache_creation: { ephemeral_5m_input_tokens: 7 } },
          content: [
            { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'q' } },
            { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
          ],
        },
      },
      {
        type: 'assistant',
        uuid: 'a4',
        isSidechain: false,
        isApiErrorMessage: true,
        message: { id: 'msg_4', model: '<synthetic>', content: [{ type: 'image', source: { type: 'base64', data: 'iVBORw0KGgo' } }, 'not a block', null, { no: 'type' }] },
      },
      { type: 'progress', uuid: 'p1', toolUseResult: { stdout: '' }, data: { message: { type: 'assistant', message: { id: 'nested', content: [{ type: 'tool_use', id: 'inner' }] } } } },
    ];
    for (const record of records) {
      for (const text of [JSON.stringify(record), JSON.stringify(record, null, 1).replace(/\n/g, ' '), ` ${JSON.stringify(record)}\r`]) {
        expectSameAsPlain(Buffer.from(text), text.slice(0, 120));
      }
    }
  });

  it('reports lines that are not one record the same way, whatever their bytes', () => {
    const cases = ['', '   ', '\r', '{"type":"user"', '{"type":"user"}{"type":"summary"}', '[]', 'null', '"x"', '{"type":"user"} x', '{"a":1,}'];
    // Literals JSON.parse refuses: Claude Code skips such a line, so the model must too.
    cases.push('{"type":"user","a":01}', '{"type":"user","a":tru}', '{"type":"user","a":NaN}', '{"type":"user","a":-}', '{"type":"user","a":1.}');
    for (const text of cases) {
      const parsed = parseLine(Buffer.from(text), 0);
      const plain = plainEntry(Buffer.from(text), 0);
      if (plain) expect(parsed.status, text).toBe('entry');
      else expect(parsed.status, text).not.toBe('entry');
    }
  });
});
