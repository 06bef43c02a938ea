// Every line type of every real log is known (today's client included), and lines that are not
// user or assistant messages contribute no tool calls: `cmv stats` reports neither an unknown type
// nor a result without its call that the log does not really have.

import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asResumedBy, openSession, type Session } from '../../src/session/session.js';
import { sessionOfLines } from '../../src/trim/trim.js';
import type { ClientModel } from '../../src/session/clients.js';
import { allCorpusFiles, sampleFiles } from '../helpers/corpus.js';

/** A log of `records`, one per line, modelled as a session (in memory). */
function sessionOf(records: object[], client?: ClientModel): Session {
  const session = sessionOfLines(
    'mem.jsonl',
    records.map((r) => Buffer.from(JSON.stringify(r))),
  );
  return client ? asResumedBy(session, client) : session;
}

describe('line types', () => {
  it('takes no tool call from a recorded request (api-request-blob), short or long', () => {
    const blob = (text: string) => ({
      type: 'api-request-blob',
      sessionId: 's',
      hash: 'h',
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text },
          { type: 'tool_use', id: 'toolu_x', name: 'Bash', input: { command: 'ls' } },
        ],
      },
    });
    const result = { type: 'api-request-blob', sessionId: 's', hash: 'h2', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_y', content: 'ok' }] } };
    for (const text of ['short', 'x'.repeat(5000)]) {
      const session = sessionOf([blob(text), result]);
      expect(session.conversation.unpairedToolUses).toEqual([]);
      expect(session.conversation.unpairedToolResults).toEqual([]);
      expect(session.unknownTypes).toEqual({});
    }
  });

  const files = [...sampleFiles(), ...allCorpusFiles()];
  describe.each(files.map((f) => [basename(f), f]))('%s', (_name, file) => {
    it('has no line type cmv does not know, and no tool call from a line that is not a message', async () => {
      const session = await openSession(file, { findSubagents: false });
      expect(session.unknownTypes).toEqual({});
      const fromNonMessages = [...session.conversation.unpairedToolUses, ...session.conversation.unpairedToolResults].filter((end) => end.entry.type !== 'user' && end.entry.type !== 'assistant');
      expect(fromNonMessages).toEqual([]);
    });
  });
});
