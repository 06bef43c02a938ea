import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { takeSnapshot } from '../../src/store/snapshot.js';
import { branchSnapshot } from '../../src/store/branch.js';
import { listSnapshots } from '../../src/store/list.js';
import { showSnapshot, snapshotGraph, snapshotLog } from '../../src/store/history.js';
import { diffSnapshots } from '../../src/store/diff.js';
import { SAMPLE_DIR } from '../helpers/corpus.js';
import { installSession, prefixCuts, sandbox, SESSION_A, SESSION_B, type Sandbox } from './helpers.js';

const coding = readFileSync(join(SAMPLE_DIR, 'coding.jsonl'));
const short = readFileSync(join(SAMPLE_DIR, 'short.jsonl'));
let box: Sandbox;
const ids: Record<string, string> = {};

// One store for the whole file: a session snapshotted twice as it grew, a branch of the first
// snapshot, and an unrelated session.
beforeAll(async () => {
  box = await sandbox();
  const at = (minutes: number) => new Date(Date.parse('2026-03-01T10:00:00Z') + minutes * 60_000);
  const half = prefixCuts(coding, 2)[0];
  const path = installSession(box, '/tmp/cmv-samples/tally', SESSION_A, coding.subarray(0, half));
  ids.a1 = (await takeSnapshot(box.store, path, { name: 'a1', message: 'half way', tags: ['wip'], now: at(1) })).id;
  writeFileSync(path, coding);
  ids.a2 = (await takeSnapshot(box.store, path, { name: 'a2', now: at(2) })).id;
  ids.b = (await branchSnapshot(box.store, 'a1', { name: 'a1-lean', env: box.env, now: at(3) })).id;
  ids.other = (await takeSnapshot(box.store, installSession(box, '/tmp/other', SESSION_B, short), { name: 'other', now: at(4) })).id;
}, 60_000);
afterAll(() => box.cleanup());

describe('listSnapshots', () => {
  it('lists every snapshot and branch, oldest first, with what the dashboard shows', async () => {
    const items = await listSnapshots(box.store);
    expect(items.map((i) => [i.name, i.kind])).toEqual([
      ['a1', 'snapshot'],
      ['a2', 'snapshot'],
      ['a1-lean', 'branch'],
      ['other', 'snapshot'],
    ]);
    expect(items[0]).toMatchObject({ message: 'half way', tags: ['wip'], sessionId: SESSION_A, parent: null });
    expect(items[1].parent).toBe(ids.a1);
    expect(items[2]).toMatchObject({ from: 'a1', trimmed: true, sessionId: SESSION_A, parent: ids.a1 });
    expect(items[2].branchSessionId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('snapshotLog', () => {
  it('gives the lineage of a snapshot, itself first', async () => {
    expect((await snapshotLog(box.store, 'a2')).map((e) => e.names)).toEqual([['a2'], ['a1']]);
    expect((await snapshotLog(box.store, 'a1-lean')).map((e) => e.id)).toEqual([ids.b, ids.a1]);
  });

  it('gives every stored snapshot without a name', async () => {
    expect(new Set((await snapshotLog(box.store)).map((e) => e.id))).toEqual(new Set(Object.values(ids)));
  });
});

describe('showSnapshot', () => {
  it('shows a snapshot with its lineage and children', async () => {
    const detail = await showSnapshot(box.store, 'a1');
    expect(detail.lineage).toEqual([]);
    expect(detail.children.map((c) => c.names[0]).sort()).toEqual(['a1-lean', 'a2']);
    const branch = await showSnapshot(box.store, ids.b.slice(0, 10));
    expect(branch.lineage.map((e) => e.id)).toEqual([ids.a1]);
    expect(branch.meta.branch?.trim?.tokensAfter).toBeLessThan(branch.meta.branch!.trim!.tokensBefore);
  });
});

describe('snapshotGraph', () => {
  it("draws the DAG with git's graph: the branch and the grown snapshot fork from the first", async () => {
    const rows = await snapshotGraph(box.store);
    const nodes = rows.filter((r) => r.entry);
    expect(nodes.map((r) => r.entry!.names[0]).sort()).toEqual(['a1', 'a1-lean', 'a2', 'other']);
    expect(rows.some((r) => !r.entry && r.graph.includes('/'))).toBe(true); // the fork
    const a1 = nodes.find((r) => r.entry!.names[0] === 'a1')!;
    expect(a1.graph).toMatch(/^\*/);
  });
});

describe('diffSnapshots', () => {
  it('lists the messages a grown snapshot added, with the token delta', async () => {
    const d = await diffSnapshots(box.store, 'a1', 'a2');
    expect(d.messages.removed).toEqual([]);
    expect(d.messages.changed).toEqual([]);
    expect(d.messages.added.length).toBeGreaterThan(5);
    expect(d.messages.added.some((m) => m.role === 'assistant' && !m.text.startsWith('['))).toBe(true);
    expect(d.tokens.delta).toBeGreaterThan(0);
    expect(d.lines.b).toBeGreaterThan(d.lines.a);
  });

  it('shows what a trimmed branch removed and rewrote, and that it added nothing', async () => {
    const d = await diffSnapshots(box.store, 'a1', 'a1-lean');
    expect(d.messages.added).toEqual([]);
    expect(d.messages.removed.length + d.messages.changed.length).toBeGreaterThan(0);
    expect(d.tokens.delta).toBeLessThan(0);
    expect(d.messages.unchanged).toBeGreaterThan(0);
  });

  it('reports files the later snapshot newly touched', async () => {
    const d = await diffSnapshots(box.store, 'a1', 'a2');
    const later = await showSnapshot(box.store, 'a2');
    const earlier = await showSnapshot(box.store, 'a1');
    const expected = later.meta.facts.files.changed.filter((f) => !earlier.meta.facts.files.changed.includes(f));
    expect(expected.length).toBeGreaterThan(0);
    expect(d.files.newlyChanged).toEqual(expected);
  });
});
