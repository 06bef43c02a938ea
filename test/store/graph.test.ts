// Snapshots keep their session graph beside the log (graph.json): the graph of exactly the log
// stored, read back by `cmv diff` (rebuilt from the log for a snapshot stored without one),
// checked by fsck, and carried by export and import.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { takeSnapshot } from '../../src/store/snapshot.js';
import { diffSnapshots } from '../../src/store/diff.js';
import { checkStore } from '../../src/store/fsck.js';
import { writeCommit } from '../../src/store/commit.js';
import { readMeta } from '../../src/store/read-meta.js';
import { updateRefs, ZERO_ID } from '../../src/store/refs.js';
import { exportBundle, importBundle } from '../../src/store/bundle.js';
import { openSession } from '../../src/session/session.js';
import { buildGraph } from '../../src/graph/build-graph.js';
import { diffGraphs } from '../../src/graph/diff-graphs.js';
import { graphJson, readGraphJson } from '../../src/graph/snapshot-graph.js';
import { SAMPLE_DIR } from '../helpers/corpus.js';
import { git, installSession, lastUuidOf, prefixCuts, sandbox, SESSION_A, SESSION_B, type Sandbox } from './helpers.js';

const OLD = new Date(Date.now() + 10 * 60 * 1000);
const coding = readFileSync(join(SAMPLE_DIR, 'coding.jsonl'));
const half = coding.subarray(0, prefixCuts(coding, 2)[0]);
const KEY = `sk-ant-api03-${'Zq8'.repeat(14)}`;
let box: Sandbox;

beforeEach(async () => {
  box = await sandbox();
});
afterEach(() => box.cleanup());

/** The graph.json of a commit as git holds it, or undefined when it has none. */
function storedGraph(id: string, store = box.store.dir): string | undefined {
  try {
    return git(store, 'show', `${id}:graph.json`);
  } catch {
    return undefined;
  }
}

/** The graph cmv builds for `data` read as a session file. */
async function graphOf(data: Buffer): Promise<string> {
  const file = join(box.root, 'graph-of.jsonl');
  writeFileSync(file, data);
  return graphJson(buildGraph(await openSession(file, { findSubagents: false })));
}

/** Snapshots `a` (half the session) and `b` (all of it, grown by appends). */
async function grownPair(options: { graphMaxBytes?: number } = {}) {
  const path = installSession(box, '/tmp/cmv-samples/tally', SESSION_A, half);
  const a = await takeSnapshot(box.store, path, { name: 'a', now: OLD, ...options });
  writeFileSync(path, coding);
  const b = await takeSnapshot(box.store, path, { name: 'b', now: OLD, ...options });
  return { a, b, path };
}

describe('takeSnapshot and the session graph', () => {
  it('stores the graph of the whole log it stores, the first time and after the log grew', async () => {
    const { a, b } = await grownPair();
    expect(b.growth).toBe('append');
    expect(storedGraph(a.id)).toBe(await graphOf(half));
    expect(storedGraph(b.id)).toBe(await graphOf(coding));
    expect(storedGraph(b.id)).not.toBe(storedGraph(a.id));
    const graph = readGraphJson(storedGraph(b.id)!);
    expect(b.graph).toEqual({ nodes: graph.nodes.length, edges: graph.edges.length });
    expect(graph.nodes.some((n) => n.type === 'FILE' && n.label === 'tally/model.py')).toBe(true);
  });

  it('stores a log over the graph size without a graph, its facts still those of the whole log', async () => {
    const { a, b } = await grownPair({ graphMaxBytes: half.length });
    expect(a.graph).not.toBeNull();
    expect(b.graph).toBeNull();
    expect(b.warnings).toEqual([]);
    expect(storedGraph(b.id)).toBeUndefined();
    const whole = await takeSnapshot(box.store, installSession(box, '/tmp/cmv-samples/tally', SESSION_B, coding), { now: OLD });
    const [grown, direct] = [await readMeta(box.store, b.id), await readMeta(box.store, whole.id)];
    expect({ ...grown.facts, sessionId: undefined }).toEqual({ ...direct.facts, sessionId: undefined });
    expect((await checkStore(box.store)).ok).toBe(true);
  });
});

describe('diffSnapshots and the session graph', () => {
  it("lists the nodes the grown snapshot added and the statuses that moved on, as the two logs' graphs differ", async () => {
    await grownPair();
    const d = await diffSnapshots(box.store, 'a', 'b');
    const { source, ...graphDiff } = d.graph;
    expect(source).toEqual({ a: 'stored', b: 'stored' });
    expect(graphDiff).toEqual(diffGraphs(readGraphJson(await graphOf(half)), readGraphJson(await graphOf(coding))));
    expect(d.graph.same).toBe(false);
    expect(d.graph.statusChanged.some((n) => n.type === 'TASK' && n.to === 'completed')).toBe(true);
    // A file the later snapshot newly changed is a new FILE node, or one whose status moved.
    expect(d.files.newlyChanged.length).toBeGreaterThan(0);
    const files = [...d.graph.added, ...d.graph.statusChanged].filter((n) => n.type === 'FILE').map((n) => n.label);
    for (const file of d.files.newlyChanged) expect(files.some((label) => file.endsWith(label))).toBe(true);
  });

  it('rebuilds the graph of a snapshot stored without one from its log, to the same diff', async () => {
    await grownPair();
    const stored = await diffSnapshots(box.store, 'a', 'b');
    const path = installSession(box, '/tmp/cmv-samples/tally', SESSION_B, half);
    await takeSnapshot(box.store, path, { name: 'bare-a', now: OLD, graphMaxBytes: 0 });
    writeFileSync(path, coding);
    await takeSnapshot(box.store, path, { name: 'bare-b', now: OLD, graphMaxBytes: 0 });
    const rebuilt = await diffSnapshots(box.store, 'bare-a', 'b');
    expect(rebuilt.graph.source).toEqual({ a: 'rebuilt', b: 'stored' });
    expect({ ...rebuilt.graph, source: undefined }).toEqual({ ...stored.graph, source: undefined });
    expect((await diffSnapshots(box.store, 'b', 'bare-b')).graph).toMatchObject({ same: true, source: { a: 'stored', b: 'rebuilt' } });
  });
});

describe('checkStore and the session graph', () => {
  it('passes snapshots with their graph, and names a graph.json cut short', async () => {
    const { b } = await grownPair();
    expect((await checkStore(box.store)).ok).toBe(true);
    const meta = await readMeta(box.store, b.id);
    const pages = git(box.store.dir, 'ls-tree', '-r', b.id)
      .split('\n')
      .filter((l) => l.includes('\tlog/'))
      .map((l) => l.split(/\s+/)[2]);
    const cut = Buffer.from(storedGraph(b.id)!.slice(0, 200));
    const damaged = await writeCommit(box.store, pages, { ...meta, name: 'cut' }, [b.id], [{ name: 'graph.json', data: cut }]);
    await updateRefs(box.store, [{ ref: 'refs/cmv/snapshots/cut', id: damaged.commit, old: ZERO_ID }], 'test');
    const report = await checkStore(box.store);
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual([
      { kind: 'graph', id: damaged.commit, snapshot: 'cut', message: expect.stringMatching(new RegExp(`^graph\\.json of ${damaged.commit.slice(0, 12)} is not JSON`)) },
    ]);
  });
});

describe('export and import with the session graph', () => {
  it('carry graph.json: byte for byte unredacted, and redacted still a graph without the secrets', async () => {
    const lastUuid = lastUuidOf(coding);
    const secret = {
      type: 'user',
      message: { role: 'user', content: `Decided to use ${KEY} because the old key expired` },
      uuid: '77777777-0000-4000-8000-000000000001',
      parentUuid: lastUuid,
      sessionId: SESSION_A,
      cwd: '/tmp/cmv-samples/tally',
    };
    const path = installSession(box, '/tmp/cmv-samples/tally', SESSION_A, Buffer.concat([coding, Buffer.from(`${JSON.stringify(secret)}\n`)]));
    const snap = await takeSnapshot(box.store, path, { name: 'keyed', now: OLD });
    const original = storedGraph(snap.id)!;
    expect(original).toBeDefined();
    for (const redact of [false, true]) {
      const there = await sandbox();
      try {
        const file = join(box.root, `keyed-${redact}.bundle`);
        await exportBundle(box.store, ['keyed'], file, { redact });
        await importBundle(there.store, file);
        const carried = storedGraph('refs/cmv/snapshots/keyed', there.store.dir)!;
        if (!redact) expect(carried).toBe(original);
        expect(carried).not.toContain(KEY);
        expect(readGraphJson(carried).nodes.length).toBe(readGraphJson(original).nodes.length);
        expect((await checkStore(there.store)).ok).toBe(true);
      } finally {
        there.cleanup();
      }
    }
  });
});
