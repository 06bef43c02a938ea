// `cmv branch --with-resume`: the snapshot's resume block in front of the branched session, where
// the chain Claude Code resumes begins, with everything the plain branch sends after it.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { takeSnapshot } from '../../src/store/snapshot.js';
import { branchSnapshot } from '../../src/store/branch.js';
import { readMeta } from '../../src/store/read-meta.js';
import { checkStore } from '../../src/store/fsck.js';
import { factsOf, storedFacts } from '../../src/store/session-facts.js';
import { openSession } from '../../src/session/session.js';
import { sentTexts } from '../../src/session/payload.js';
import { buildGraph } from '../../src/graph/build-graph.js';
import { buildResume, TIER_BUDGETS } from '../../src/graph/resume-block.js';
import { readGraphJson } from '../../src/graph/snapshot-graph.js';
import { SUMMARY_PREFIX } from '../../src/graph/summary-records.js';
import { SAMPLE_DIR } from '../helpers/corpus.js';
import { git, installSession, sandbox, SESSION_A, type Sandbox } from './helpers.js';

const OLD = new Date(Date.now() + 10 * 60 * 1000);
let box: Sandbox;

beforeEach(async () => {
  box = await sandbox();
});
afterEach(() => box.cleanup());

type Line = Record<string, any>;
const linesOf = (path: string): Line[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);
const texts = async (path: string) => sentTexts(await openSession(path, { findSubagents: false })).map((t) => `${t.role}: ${t.text}`);

/** The sample installed as session A and snapshotted as `work`. */
async function snapshotOf(sample: string, options: { graphMaxBytes?: number } = {}): Promise<string> {
  const path = installSession(box, '/tmp/cmv-samples/resume', SESSION_A, readFileSync(join(SAMPLE_DIR, sample)));
  await takeSnapshot(box.store, path, { name: 'work', now: OLD, ...options });
  return path;
}

describe('branchSnapshot with the resume block', () => {
  it('puts the block first in the trimmed branch: the chain starts at it, then sends all the plain branch sends', async () => {
    await snapshotOf('coding.jsonl');
    const plain = await branchSnapshot(box.store, 'work', { env: box.env });
    const resumed = await branchSnapshot(box.store, 'work', { resume: {}, env: box.env });
    const graph = readGraphJson(git(box.store.dir, 'show', 'refs/cmv/snapshots/work:graph.json'));
    expect(resumed.resume?.text).toBe(buildResume(graph, { tier: 'standard' }).text);
    expect(resumed.resume?.text.length).toBeGreaterThan(0);

    const [boundary, summary, ...rest] = linesOf(resumed.path);
    expect(boundary).toMatchObject({ type: 'system', subtype: 'compact_boundary', parentUuid: null, sessionId: resumed.sessionId });
    expect(summary).toMatchObject({ type: 'user', isCompactSummary: true, parentUuid: boundary.uuid, uuid: resumed.resume?.summaryUuid, sessionId: resumed.sessionId });
    expect(summary.message.content.startsWith(SUMMARY_PREFIX)).toBe(true);
    expect(summary.message.content).toContain(resumed.resume!.text);
    expect(rest.find((l) => l.type === 'user')?.parentUuid).toBe(summary.uuid);
    expect(rest.filter((l) => l.parentUuid === null)).toEqual([]);

    const sent = await texts(resumed.path);
    expect(sent[0]).toBe(`user: ${summary.message.content}`);
    expect(sent.slice(1)).toEqual(await texts(plain.path));

    const meta = await readMeta(box.store, resumed.id);
    expect(meta.branch?.resume).toEqual({ tier: 'standard', tokens: resumed.resume!.tokens, summaryUuid: summary.uuid });
    // The facts stored are those of the file written, read back whole.
    expect(meta.facts).toEqual(storedFacts(factsOf(await openSession(resumed.path, { findSubagents: false }))));
    expect(meta.facts.compactions).toBe(1);
    expect((await checkStore(box.store)).ok).toBe(true);
  });

  it('holds each tier to its token budget', async () => {
    await snapshotOf('coding.jsonl');
    const tokens: number[] = [];
    for (const tier of ['critical', 'standard', 'full'] as const) {
      const branch = await branchSnapshot(box.store, 'work', { resume: { tier }, env: box.env });
      expect(branch.resume?.tier).toBe(tier);
      expect(branch.resume!.tokens).toBeLessThanOrEqual(TIER_BUDGETS[tier]);
      tokens.push(branch.resume!.tokens);
    }
    expect(tokens[0]).toBeLessThan(tokens[2]);
  });

  it("in a compacted session goes right after the last compact boundary, the session's own summary sent next", async () => {
    await snapshotOf('compacted.jsonl');
    const plain = await branchSnapshot(box.store, 'work', { trim: false, env: box.env });
    const resumed = await branchSnapshot(box.store, 'work', { trim: false, resume: {}, env: box.env });
    const before = linesOf(plain.path);
    const after = linesOf(resumed.path);
    const theirs = before.findLastIndex((l) => l.subtype === 'compact_boundary');
    expect(theirs).toBeGreaterThan(0);
    expect(after.length).toBe(before.length + 2);
    expect(after[theirs + 1]).toMatchObject({ subtype: 'compact_boundary', parentUuid: null });
    expect(after[theirs + 2]).toMatchObject({ isCompactSummary: true, uuid: resumed.resume?.summaryUuid });
    const sent = await texts(resumed.path);
    expect(sent[0]).toContain(resumed.resume!.text);
    expect(sent.slice(1)).toEqual(await texts(plain.path));
    expect(sent[1]).toMatch(/^user: This session is being continued/);
  });

  it('rebuilds the graph of a snapshot stored without one, and changes nothing else of a whole copy', async () => {
    const path = await snapshotOf('coding.jsonl', { graphMaxBytes: 0 });
    const plain = await branchSnapshot(box.store, 'work', { trim: false, env: box.env });
    const resumed = await branchSnapshot(box.store, 'work', { trim: false, resume: { tier: 'critical' }, env: box.env });
    expect(resumed.resume?.text).toBe(buildResume(buildGraph(await openSession(path)), { tier: 'critical' }).text);
    const after = linesOf(resumed.path).slice(2);
    const first = after.find((l) => l.parentUuid === resumed.resume?.summaryUuid)!;
    first.parentUuid = null;
    // Each copy marks its responses with a tag of its own (session/derived.ts): compared without it.
    const untagged = (l: Line) => JSON.parse(JSON.stringify(l).replace(/_cmv[0-9a-f]+"/g, '"'));
    const withoutIds = (lines: Line[]) => lines.map((l) => ({ ...untagged(l), sessionId: undefined, cmvDerived: undefined }));
    expect(withoutIds(after)).toEqual(withoutIds(linesOf(plain.path)));
    expect((await checkStore(box.store)).ok).toBe(true);
  });
});
