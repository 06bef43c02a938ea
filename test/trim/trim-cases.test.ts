// The shapes of the real logs the trim refused (issue 16), as small invented logs: the model says
// what Claude Code 2.1.100 resumes from each, the trim writes a log that resumes every text of it
// in order (in memory and streamed to a file), and the verifier still catches the faults it exists for.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSession } from '../../src/session/session.js';
import { sentTexts } from '../../src/session/payload.js';
import { trimSession, sessionOfLines } from '../../src/trim/trim.js';
import { verifySessions } from '../../src/trim/verify.js';
import { AtomicWriter } from '../../src/session/write.js';
import { smallCaseD, writeTrimCases, type TrimCase } from './trim-case-logs.js';

const dir = mkdtempSync(join(tmpdir(), 'cmv-trim-cases-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cases = writeTrimCases(dir);
const byId = (id: TrimCase['id']) => cases.find((c) => c.id === id)!;

const textsOf = (session: Awaited<ReturnType<typeof openSession>>) => sentTexts(session).map((t) => t.text);

/** Whether `wanted` appears in `texts` in order (other texts may come between). */
function inOrder(wanted: string[], texts: string[]): boolean {
  let at = 0;
  for (const text of texts) if (text === wanted[at]) at++;
  return at === wanted.length;
}

describe('trim cases: what Claude Code resumes from the original', () => {
  for (const c of cases) {
    it(`${c.id} (${c.shape}): the model sends exactly the texts the client sends`, async () => {
      expect(textsOf(await openSession(c.path))).toEqual(c.resumes);
    });
  }

  it('D under 5 MiB: read whole, the glued line is skipped and every text is sent', async () => {
    const small = smallCaseD(dir);
    const session = await openSession(small.path);
    expect(session.conversation.streamedLoad).toBeUndefined();
    expect(textsOf(session)).toEqual(small.resumes);
  });

  it('D over 5 MiB: the streamed load stops at the glued line (line 3)', async () => {
    const session = await openSession(byId('D').path);
    expect(session.conversation.streamedLoad).toEqual({ stoppedAtLine: 2 });
  });
});

describe('trim cases: the trim writes a log that resumes every text of the original, in order', () => {
  for (const c of cases) {
    it(`${c.id} (${c.shape}) trims and verifies, in memory and streamed`, async () => {
      const memory = await trimSession(c.path, {});
      expect(memory.verify.faults).toEqual([]);
      const trimmed = sessionOfLines(join(dir, `${c.id}-trimmed.jsonl`), memory.lines);
      expect(inOrder(c.resumes, textsOf(trimmed)), `sent after the trim: ${JSON.stringify(textsOf(trimmed))}`).toBe(true);

      const writer = await AtomicWriter.open(join(dir, `${c.id}-streamed.jsonl`));
      const streamed = await trimSession(c.path, {}, { writer });
      await writer.commit();
      expect(streamed.verify.faults).toEqual([]);
      const written = readFileSync(writer.path);
      expect(written.equals(Buffer.concat(memory.lines.flatMap((l) => [l, Buffer.from('\n')])))).toBe(true);
    });
  }

  it('A: the trimmed new chain starts where the original started it, and nothing before it is sent', async () => {
    const c = byId('A');
    const result = await trimSession(c.path, {});
    const trimmed = sessionOfLines(c.path, result.lines);
    const start = trimmed.conversation.entries.find((e) => e.type === 'user' && e.parentUuid === null && e.line > 0);
    expect(start?.blocks[0]?.type).toBe('text');
    for (const text of c.notResumed) expect(textsOf(trimmed)).not.toContain(text);
  });

  it('B: the prompt after the gap links to the entry the client bridged to, not to the missing uuid', async () => {
    for (const id of ['B', 'B2'] as const) {
      const c = byId(id);
      const result = await trimSession(c.path, {});
      const trimmed = sessionOfLines(c.path, result.lines).conversation;
      const prompt = trimmed.entries.find((e) => e.type === 'user' && e.blocks.some((b) => b.type === 'text' && b.chars > 0) && e.line > 1);
      expect(prompt, id).toBeDefined();
      expect(trimmed.byUuid.has(prompt!.parentUuid as string), `${id}: parent of the later prompt is in the file`).toBe(true);
      expect(trimmed.danglingParents, id).toEqual([]);
    }
  });

  it('C: the segment of the newest entry is kept, and what it does not send may stay', async () => {
    for (const id of ['C', 'C2'] as const) {
      const c = byId(id);
      const result = await trimSession(c.path, {});
      expect(result.removed.linesBeforeBoundary, id).toBe(0);
      expect(result.verify.toolPairs.intact, id).toBe(result.verify.toolPairs.total);
    }
  });
});

describe('trim cases: the verifier still catches what it exists for', () => {
  it('a chain start the original did not have is a chain-break', async () => {
    // B2 trimmed, then the later prompt cut from its parent: the turns before it would be lost.
    const c = byId('B2');
    const original = await openSession(c.path);
    const result = await trimSession(c.path, {});
    const lines = result.lines.map((bytes) => {
      const record = JSON.parse(bytes.toString('utf8'));
      if (record.type === 'user' && record.message.content === 'Make the expiry configurable.') record.parentUuid = null;
      return Buffer.from(JSON.stringify(record));
    });
    const report = verifySessions(original, sessionOfLines(c.path, lines));
    expect(report.faults.map((f) => f.kind)).toContain('chain-break');
    expect(report.faults.map((f) => f.kind)).toContain('missing-text');
  });

  it("A verified against its own original: the new chain's null parent is no fault", async () => {
    const c = byId('A');
    const result = await trimSession(c.path, {});
    expect(verifySessions(await openSession(c.path), sessionOfLines(c.path, result.lines)).faults).toEqual([]);
  });
});
