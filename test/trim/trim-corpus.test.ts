// The trim on every real log we have (sample sessions and ../shared/corpus, subagent transcripts
// included): it verifies, it is idempotent, it removes what it promises to remove from every line,
// streamed to a file it writes what it keeps in memory, its token counts match the full model's,
// and it never touches its input.

import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { trimSession } from '../../src/trim/trim.js';
import { AtomicWriter } from '../../src/session/write.js';
import { openSession } from '../../src/session/session.js';
import { tokenBreakdown } from '../../src/tokens/breakdown.js';
import { HAS_CORPUS, HAS_RECENT_CORPUS, corpusFiles, recentCorpusFiles, sampleFiles } from '../helpers/corpus.js';

const scratch = mkdtempSync(join(tmpdir(), 'cmv-trim-corpus-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const DROPPED_TYPES = new Set(['file-history-snapshot', 'progress', 'queue-operation']);

function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

function joinLines(lines: Buffer[]): Buffer {
  return Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')]));
}

/** What is left in the output that the trim promises to remove, one description per finding. */
function leftovers(lines: Buffer[]): { findings: string[]; unparsable: number } {
  const findings: string[] = [];
  let unparsable = 0;
  lines.forEach((bytes, i) => {
    let record: any;
    try {
      record = JSON.parse(bytes.toString('utf8'));
    } catch {
      // Lines that are not one JSON record are copied verbatim (Claude Code skips them whole).
      unparsable++;
      return;
    }
    if (!record || typeof record !== 'object') return;
    if (DROPPED_TYPES.has(record.type)) findings.push(`line ${i + 1}: a ${record.type} line`);
    if ('toolUseResult' in record) findings.push(`line ${i + 1}: a toolUseResult field`);
    const content = record.message?.content;
    if (Array.isArray(content)) {
      for (const block of content) {
        if (block?.type === 'thinking' || block?.type === 'redacted_thinking') findings.push(`line ${i + 1}: a ${block.type} block`);
      }
    }
  });
  return { findings, unparsable };
}

function checkTrim(file: string): () => Promise<void> {
  return async () => {
    const name = basename(file);
    const hashBefore = sha256(file);
    const newSessionId = randomUUID();
    const first = await trimSession(file, {}, { newSessionId });

    expect(first.verify.faults, `${name}: verify faults`).toEqual([]);
    expect(first.verify.ok).toBe(true);
    for (const value of [first.reduction.tokens, first.reduction.bytes]) {
      expect(typeof value).toBe('number');
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThanOrEqual(1);
    }

    const { findings, unparsable } = leftovers(first.lines);
    expect(findings, `${name}: left in the trimmed log`).toEqual([]);
    expect(unparsable, `${name}: unparsable output lines are exactly the malformed input lines kept`).toBe(first.malformedLinesKept.length);

    // Idempotence: trimming the trimmed log again changes nothing at all.
    const out = join(scratch, `${newSessionId}.jsonl`);
    writeFileSync(out, joinLines(first.lines));
    const second = await trimSession(out);
    expect(second.verify.faults, `${name}: verify faults of the second trim`).toEqual([]);
    expect(second.lines.length, `${name}: line count of the second trim`).toBe(first.lines.length);
    const changed = second.lines.findIndex((line, i) => !line.equals(first.lines[i]));
    expect(changed, `${name}: the second trim changed line ${changed + 1}`).toBe(-1);
    expect(second.reduction.tokens).toBe(0);

    // Streamed to a file (scratch spill, recycled read buffers, the lines before the last
    // compaction not indexed), the output is the same, byte for byte, and so are the counts.
    const writer = await AtomicWriter.open(join(scratch, `${newSessionId}-streamed.jsonl`));
    const streamed = await trimSession(file, {}, { newSessionId, writer });
    await writer.commit();
    expect(streamed.verify.faults, `${name}: verify faults of the streamed trim`).toEqual([]);
    expect(readFileSync(writer.path).equals(joinLines(first.lines)), `${name}: streamed output differs from the in-memory one`).toBe(true);
    expect([streamed.tokens.before.total, streamed.tokens.after.total]).toEqual([first.tokens.before.total, first.tokens.after.total]);
    expect(streamed.removed, `${name}: what the streamed trim says it removed`).toEqual(first.removed);
    expect(streamed.input.lines).toBe(first.input.lines);

    // The tokens the trim reports as sent before it match a count over the full model of the log.
    expect(first.tokens.before.total, `${name}: sent tokens before`).toBe(tokenBreakdown(await openSession(file)).total);

    expect(sha256(file), `${name}: the input file changed`).toBe(hashBefore);
  };
}

describe('trim on real sessions', () => {
  describe('sample-sessions', () => {
    for (const file of sampleFiles()) {
      it(`${basename(file)}: verifies, is idempotent, leaves no thinking, sidecars or bookkeeping lines, and leaves its input alone`, checkTrim(file), 60_000);
    }
  });

  describe.skipIf(!HAS_CORPUS)('corpus', () => {
    for (const file of corpusFiles()) {
      it(`${basename(file)}: verifies, is idempotent, leaves no thinking, sidecars or bookkeeping lines, and leaves its input alone`, checkTrim(file), 60_000);
    }
  });

  describe.skipIf(!HAS_RECENT_CORPUS)('recent corpus (2.1.50 on)', () => {
    for (const file of recentCorpusFiles()) {
      it(`${basename(file)}: verifies, is idempotent, leaves no thinking, sidecars or bookkeeping lines, and leaves its input alone`, checkTrim(file), 60_000);
    }
  });
});
