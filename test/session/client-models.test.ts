// The conversation model per client (src/session/clients.ts): which entry each client resumes
// from, a compaction's preserved segment, and the text 2.1.332 adds after a ToolSearch.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asResumedBy, openSession, type Session } from '../../src/session/session.js';
import { sentTexts } from '../../src/session/payload.js';
import type { ClientModel } from '../../src/session/clients.js';
import { CLIENT_2_1_100, CLIENT_2_1_332, clientModelFor, compareVersions } from '../../src/session/clients.js';
import { trimSession, sessionOfLines } from '../../src/trim/trim.js';
import { verifySessions } from '../../src/trim/verify.js';
import { SAMPLE_DIR_332 } from '../helpers/corpus.js';

/** A log of `records`, one per line, modelled as a session (in memory). */
function sessionOf(records: object[], client?: ClientModel): Session {
  const session = sessionOfLines(
    'mem.jsonl',
    records.map((r) => Buffer.from(JSON.stringify(r))),
  );
  return client ? asResumedBy(session, client) : session;
}

const at = (minute: number) => `2026-01-10T09:${String(minute).padStart(2, '0')}:00.000Z`;
const user = (uuid: string, parentUuid: string | null, text: string, minute: number) => ({
  type: 'user',
  uuid,
  parentUuid,
  timestamp: at(minute),
  sessionId: 's',
  message: { role: 'user', content: text },
});
const assistant = (uuid: string, parentUuid: string, text: string, minute: number) => ({
  type: 'assistant',
  uuid,
  parentUuid,
  timestamp: at(minute),
  sessionId: 's',
  message: { id: `msg_${uuid}`, role: 'assistant', model: 'claude-opus-4-6', content: [{ type: 'text', text }] },
});

describe('client models', () => {
  it('maps a version to the newest model at or below it', () => {
    expect(clientModelFor('2.1.100')).toBe(CLIENT_2_1_100);
    expect(clientModelFor('2.1.200')).toBe(CLIENT_2_1_100);
    expect(clientModelFor('2.1.332')).toBe(CLIENT_2_1_332);
    expect(clientModelFor('2.2.0')).toBe(CLIENT_2_1_332);
    expect(compareVersions('2.1.99', '2.1.100')).toBeLessThan(0);
  });

  it('resumes from the newest timestamp in 2.1.100 and from the last entry of the file in 2.1.332', () => {
    // Two chains: the later in the file is the older in time (trim-case C's shape).
    const old = sessionOf(
      [
        user('a1', null, 'Write the release checklist now.', 40),
        assistant('a2', 'a1', 'The checklist is written.', 41),
        user('b1', null, 'Which changelog format do we use?', 20),
        assistant('b2', 'b1', 'We use keep-a-changelog.', 21),
      ],
      CLIENT_2_1_100,
    );
    const today = asResumedBy(old, CLIENT_2_1_332);
    expect(sentTexts(old).map((t) => t.text)).toEqual(['Write the release checklist now.', 'The checklist is written.']);
    expect(sentTexts(today).map((t) => t.text)).toEqual(['Which changelog format do we use?', 'We use keep-a-changelog.']);
  });

  it('finds a fault only one client would see, and names that client (models of one log share all but the client rules)', () => {
    const records = [
      user('a1', null, 'Write the release checklist now.', 40),
      assistant('a2', 'a1', 'The checklist is written.', 41),
      user('b1', null, 'Which changelog format do we use?', 20),
      assistant('b2', 'b1', 'We use keep-a-changelog.', 21),
    ];
    const original = sessionOf(records);
    // The chain only 2.1.332 resumes (last in file) loses its answer; then the one only 2.1.100 resumes (newest).
    const lostToday = sessionOf([...records.slice(0, 3), assistant('b2', 'b1', 'We use something.', 21)]);
    const today = verifySessions(original, lostToday);
    expect(today.ok).toBe(false);
    expect(today.faults.filter((f) => f.kind === 'missing-text').map((f) => f.clients)).toEqual([['2.1.332']]);
    const lostOld = sessionOf([records[0], assistant('a2', 'a1', 'Something was written.', 41), ...records.slice(2)]);
    const old = verifySessions(original, lostOld);
    expect(old.ok).toBe(false);
    expect(old.faults.filter((f) => f.kind === 'missing-text').map((f) => f.clients)).toEqual([['2.1.100']]);
    expect(verifySessions(original, sessionOf(records)).ok).toBe(true);
  });

  it('sends a preserved segment after the compaction summary, before what follows it', () => {
    const records = [
      user('u1', null, 'Fix the pipes.', 1),
      assistant('p1', 'u1', 'Done: pipes are escaped.', 2),
      {
        type: 'system',
        subtype: 'compact_boundary',
        uuid: 'b',
        parentUuid: null,
        logicalParentUuid: 'p1',
        timestamp: at(3),
        sessionId: 's',
        compactMetadata: { trigger: 'manual', preservedSegment: { headUuid: 'p1', anchorUuid: 's1', tailUuid: 'p1' } },
      },
      { ...user('s1', 'b', 'This session is being continued from a previous conversation.', 3), isCompactSummary: true },
      user('u2', 's1', 'Now add an --align option.', 4),
      assistant('a2', 'u2', 'Added --align.', 5),
    ];
    for (const client of [CLIENT_2_1_100, CLIENT_2_1_332]) {
      const session = sessionOf(records, client);
      expect(sentTexts(session).map((t) => t.text)).toEqual([
        'This session is being continued from a previous conversation.',
        'Done: pipes are escaped.',
        'Now add an --align option.',
        'Added --align.',
      ]);
    }
  });

  it('ignores a preserved segment whose tail-to-head walk breaks, as the client does', () => {
    const session = sessionOf([
      user('u1', null, 'Fix the pipes.', 1),
      {
        type: 'system',
        subtype: 'compact_boundary',
        uuid: 'b',
        parentUuid: null,
        timestamp: at(3),
        sessionId: 's',
        compactMetadata: { preservedSegment: { headUuid: 'gone', anchorUuid: 's1', tailUuid: 'gone' } },
      },
      { ...user('s1', 'b', 'Summary.', 3), isCompactSummary: true },
      user('u2', 's1', 'Go on.', 4),
    ]);
    expect(sentTexts(session).map((t) => t.text)).toEqual(['Summary.', 'Go on.']);
  });

  it('adds "Tool loaded." after a ToolSearch result that loaded tools, in 2.1.332 only', () => {
    const old = sessionOf(
      [
        user('u1', null, 'Track this as tasks.', 1),
        {
          ...assistant('a1', 'u1', 'Loading the task tools.', 2),
          message: {
            id: 'm1',
            role: 'assistant',
            model: 'x',
            content: [
              { type: 'text', text: 'Loading the task tools.' },
              { type: 'tool_use', id: 't1', name: 'ToolSearch', input: { query: 'select:TaskCreate' } },
            ],
          },
        },
        {
          type: 'user',
          uuid: 'r1',
          parentUuid: 'a1',
          timestamp: at(3),
          sessionId: 's',
          message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'tool_reference', tool_name: 'TaskCreate' }] }] },
        },
      ],
      CLIENT_2_1_100,
    );
    expect(sentTexts(old).map((t) => t.text)).not.toContain('Tool loaded.');
    expect(sentTexts(asResumedBy(old, CLIENT_2_1_332)).map((t) => t.text)).toEqual(['Track this as tasks.', 'Loading the task tools.', 'Tool loaded.']);
  });
});

describe('a 2.1.332 session compacted with /compact (sample-sessions/2.1.332/compacted.jsonl)', () => {
  const file = join(SAMPLE_DIR_332, 'compacted.jsonl');

  it('trims by default to a log that still holds the preserved message, and verifies for both clients', async () => {
    const original = await openSession(file);
    expect(original.conversation.preserved.size).toBeGreaterThan(0);
    const result = await trimSession(file);
    expect(result.verify.faults).toEqual([]);
    expect(result.verify.clients).toEqual(['2.1.100', '2.1.332']);
    const kept = new Set(result.trimmed.conversation.entries.map((e) => e.uuid));
    for (const entry of original.conversation.preserved) expect(kept.has(entry.uuid)).toBe(true);
  });

  it('refuses, with a fault that names it, a trimmed log that lost the preserved message', async () => {
    const original = await openSession(file);
    const result = await trimSession(file);
    const lost = new Set([...original.conversation.preserved].map((e) => e.uuid));
    const without = result.lines.filter((line) => !lost.has(JSON.parse(line.toString('utf8')).uuid));
    const report = verifySessions(original, sessionOfLines('trimmed.jsonl', without));
    expect(report.ok).toBe(false);
    expect(report.faults.map((f) => f.kind)).toContain('preserved-segment-lost');
    expect(report.faults.find((f) => f.kind === 'preserved-segment-lost')?.message).toMatch(/preservedSegment/);
  });
});
