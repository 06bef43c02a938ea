import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spliceSession } from '../../src/session/splice.js';
import { sessionBytes, type Session } from '../../src/session/session.js';
import { sessionOfBuffer } from '../../src/store/session-facts.js';
import { sentTexts } from '../../src/session/payload.js';
import { SAMPLE_DIR } from '../helpers/corpus.js';

const coding = readFileSync(join(SAMPLE_DIR, 'coding.jsonl'));
const line = (record: object) => Buffer.from(JSON.stringify(record));

/** What a model says about its log, in a form two models can be compared by. */
function shape(session: Session) {
  const c = session.conversation;
  return {
    bytes: session.bytes,
    lines: session.lines.map(({ index, offset, length, terminated, status }) => ({ index, offset, length, terminated, status })),
    entries: c.entries,
    activePath: c.activePath.map((e) => e.uuid),
    sent: sentTexts(session),
  };
}

describe('spliceSession', () => {
  it('models the edited log as parsing its bytes would, without parsing the lines it kept', () => {
    const session = sessionOfBuffer('/tmp/coding.jsonl', coding);
    const root = session.conversation.activePath[0];
    const record = JSON.parse(session.lines[root.line].bytes!.toString('utf8'));
    const inserted = [
      line({ type: 'system', subtype: 'informational', content: 'before', uuid: '00000000-0000-4000-8000-000000000001', parentUuid: null, timestamp: record.timestamp }),
      line({ type: 'summary', summary: 'a title', leafUuid: root.uuid }),
    ];
    for (const at of [0, root.line, session.lines.length]) {
      const spliced = spliceSession(session, at, inserted, new Map([[root.line, line({ ...record, message: { role: 'user', content: 'rewritten prompt' } })]]));
      const reparsed = sessionOfBuffer('/tmp/coding.jsonl', sessionBytes(spliced));
      expect(shape(spliced)).toEqual(shape(reparsed));
      expect(sentTexts(spliced)[0].text).toBe('rewritten prompt');
      expect(spliced.lines.length).toBe(session.lines.length + 2);
    }
  });

  it('refuses to put lines after a last line that has no newline yet', () => {
    const session = sessionOfBuffer('/tmp/cut.jsonl', coding.subarray(0, coding.length - 5));
    expect(() => spliceSession(session, session.lines.length, [line({ type: 'summary' })])).toThrow(RangeError);
  });
});
