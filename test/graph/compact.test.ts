// Deterministic compaction, checked on the file it writes: the boundary and summary lines as
// Claude Code writes its own, zone A byte for byte, zone B with tool output stubbed, zone C left
// behind the boundary, and the same bytes for the same log.

import { deriveLine, derivedTag } from '../../src/session/derived.js';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openSession } from '../../src/session/session.js';
import { compactSession, SUMMARY_PREFIX } from '../../src/graph/compact.js';
import { findZones } from '../../src/graph/compact-zones.js';
import { CmvError } from '../../src/errors.js';
import { SAMPLE_DIR } from '../helpers/corpus.js';

const CODING = join(SAMPLE_DIR, 'coding.jsonl');
const COMPACTED = join(SAMPLE_DIR, 'compacted.jsonl');

function records(lines: Buffer[]): Record<string, any>[] {
  return lines.map((l) => JSON.parse(l.toString('utf8')));
}

describe('compactSession', () => {
  it("writes a compact_boundary and an isCompactSummary line shaped like Claude Code's own", async () => {
    const session = await openSession(COMPACTED);
    const result = compactSession(session);
    const out = records(result.lines);
    const at = out.findIndex((r) => r.uuid === result.boundaryUuid);
    const [boundary, summary] = [out[at], out[at + 1]];
    // The shape of sample-sessions/compacted.jsonl's real compaction, field for field.
    const real = records(
      readFileSync(COMPACTED, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => Buffer.from(l)),
    );
    const realBoundary = real.find((r) => r.subtype === 'compact_boundary')!;
    const realSummary = real.find((r) => r.isCompactSummary)!;
    expect(Object.keys(boundary).sort()).toEqual(Object.keys(realBoundary).sort());
    expect(Object.keys(summary).sort()).toEqual(Object.keys(realSummary).sort());
    expect(boundary).toMatchObject({ parentUuid: null, type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', level: 'info', compactMetadata: { trigger: 'manual' } });
    expect(boundary.compactMetadata.preTokens).toBeGreaterThan(0);
    expect(session.conversation.byUuid.has(boundary.logicalParentUuid)).toBe(true);
    expect(summary).toMatchObject({ parentUuid: result.boundaryUuid, type: 'user', isCompactSummary: true, isVisibleInTranscriptOnly: true });
    expect(summary.message.content.startsWith(SUMMARY_PREFIX)).toBe(true);
    expect(summary.message.content).toContain(result.summary.text);
    expect(result.check).toMatchObject({ ok: true, faults: [] });
  });

  it('keeps zone A byte for byte and re-links only the first kept line', async () => {
    const session = await openSession(CODING);
    const zones = findZones(session, 5);
    const result = compactSession(session);
    const outBytes = new Set(result.lines.map((l) => l.toString('utf8')));
    const firstKept = zones.b[0] ?? zones.a[0];
    for (const entry of zones.a) {
      if (entry === firstKept) continue;
      // A response's lines are marked as a copy's (session/derived.ts); every other line is kept byte for byte.
      const expected = entry.usage
        ? deriveLine(session.lines[entry.line].bytes!, { by: 'compact', from: session.facts.sessionId, tag: derivedTag(result.summaryUuid) })
        : session.lines[entry.line].bytes!;
      expect(outBytes.has(expected.toString('utf8')), `zone A line ${entry.line + 1}`).toBe(true);
    }
    const first = records(result.lines).find((r) => r.uuid === firstKept.uuid)!;
    expect(first.parentUuid).toBe(result.summaryUuid);
  });

  it('stubs long tool output in zone B and leaves zone C behind the boundary', async () => {
    const session = await openSession(COMPACTED);
    const result = compactSession(session);
    expect(result.zones.b.toolResultsStubbed).toBeGreaterThan(0);
    expect(result.zones.c.messages).toBeGreaterThan(0);
    const sent = result.compacted.conversation.sentMessages;
    expect(sent[0].uuid).toBe(result.summaryUuid);
    // Nothing from before the new boundary is sent again.
    const boundaryLine = result.compacted.conversation.compactBoundaries.at(-1)!.line;
    expect(sent.every((e) => e.line > boundaryLine)).toBe(true);
    expect(result.output.tokens).toBeLessThan(result.input.tokens);
  });

  it('writes the same bytes for the same log', async () => {
    const a = compactSession(await openSession(CODING), { newSessionId: 'a9d0c5e1-0000-4000-8000-000000000001' });
    const b = compactSession(await openSession(CODING), { newSessionId: 'a9d0c5e1-0000-4000-8000-000000000001' });
    expect(Buffer.concat(b.lines).equals(Buffer.concat(a.lines))).toBe(true);
    expect(records(a.lines).every((r) => !('sessionId' in r) || r.sessionId === 'a9d0c5e1-0000-4000-8000-000000000001')).toBe(true);
  });

  it('refuses a session whose last prompt and kept messages are all there is', async () => {
    const session = await openSession(join(SAMPLE_DIR, 'short.jsonl'));
    expect(() => compactSession(session)).toThrow(CmvError);
    expect(() => compactSession(session)).toThrow(/nothing to compact/);
  });
});

describe('cmv compact of a log with faults of its own', () => {
  it('says the log already has them, not that cmv failed', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { compactCommand } = await import('../../src/cli/commands/compact.js');
    const { Output } = await import('../../src/cli/output.js');
    // The last tool result of the coding sample answers a call the log does not hold.
    const lines = readFileSync(join(SAMPLE_DIR, 'coding.jsonl'), 'utf8').split('\n');
    const last = lines
      .map((l, i) => [l, i] as const)
      .filter(([l]) => l.includes('"tool_result"'))
      .at(-1)![1];
    lines[last] = lines[last].replace(/"tool_use_id":"[^"]+"/, '"tool_use_id":"toolu_not_in_this_log"');
    const file = join(mkdtempSync(join(tmpdir(), 'cmv-compact-faults-')), 'faulty.jsonl');
    writeFileSync(file, lines.join('\n'));
    const error = await compactCommand(file, { output: `${file}.out` }, new Output({ json: true })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CmvError);
    expect((error as CmvError).message).toMatch(/already has/);
    expect((error as CmvError).hint).not.toMatch(/report it/);
  });
});
