import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { withSessionId } from '../../src/store/session-id.js';
import { SAMPLE_DIR } from '../helpers/corpus.js';

const NEW_ID = '11111111-2222-4333-8444-555555555555';

describe('withSessionId', () => {
  it('rewrites every top-level sessionId of a real log and leaves every other byte alone', () => {
    const data = readFileSync(join(SAMPLE_DIR, 'coding.jsonl'));
    const out = withSessionId(data, NEW_ID);
    const before = data.toString('utf8').split('\n');
    const after = out.toString('utf8').split('\n');
    expect(after.length).toBe(before.length);
    let rewritten = 0;
    before.forEach((line, i) => {
      if (!line) return expect(after[i]).toBe('');
      const a = JSON.parse(line);
      const b = JSON.parse(after[i]);
      if ('sessionId' in a) {
        expect(b.sessionId).toBe(NEW_ID);
        rewritten++;
      }
      expect({ ...b, sessionId: a.sessionId }).toEqual(a);
      // Same length ids: the line is the same bytes but for the id.
      expect(after[i].length).toBe(line.length);
    });
    expect(rewritten).toBeGreaterThan(10);
  });

  it('changes only the top-level id when nested records carry one too', () => {
    const line = JSON.stringify({ type: 'progress', data: { message: { sessionId: 'old-id-000' } }, sessionId: 'old-id-000' });
    const out = JSON.parse(withSessionId(Buffer.from(`${line}\n`), NEW_ID).toString('utf8'));
    expect(out.sessionId).toBe(NEW_ID);
    expect(out.data.message.sessionId).toBe('old-id-000');
  });

  it('keeps malformed lines, lines without a sessionId and a missing final newline as they are', () => {
    const text = '{"type":"summary","summary":"x"}\n{"sessionId":"abc", broken\n{"sessionId":"abc","type":"user"}';
    const out = withSessionId(Buffer.from(text), NEW_ID).toString('utf8');
    expect(out).toBe(`{"type":"summary","summary":"x"}\n{"sessionId":"abc", broken\n{"sessionId":"${NEW_ID}","type":"user"}`);
  });
});
