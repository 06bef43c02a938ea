// A snapshot after the PreCompact hook trimmed the log in place: the history before the last
// boundary kept its bytes, so the snapshot recognises its first pages by the parent's recorded
// history and models only what follows; its facts are those of the whole log modelled at once.

import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { takeSnapshot } from '../../src/store/snapshot.js';
import { factsOf, sessionOfBuffer, storedFacts } from '../../src/store/session-facts.js';
import { trimSession } from '../../src/trim/trim.js';
import { SessionBuilder, CWD, readOutput, commandOutput } from '../trim/session-builder.js';
import { git, installSession, sandbox, type Sandbox } from './helpers.js';
import { PAGES_PER_GROUP } from '../../src/store/pages.js';

let box: Sandbox | undefined;
afterEach(() => box?.cleanup());

/** Small pages and no graph, so a small log takes the path of a long one. */
const LONG_LOG = { graphMaxBytes: 0, pageRule: { minBytes: 2 * 1024, spreadBytes: 4 * 1024, maxBytes: 16 * 1024 } };

function segment(b: SessionBuilder, n: number): void {
  for (let i = 0; i < 4; i++) {
    b.user(`Part ${n}.${i}: read the next file and run the tests.`);
    b.toolCall('Read', { file_path: `${CWD}/src/part${n}-${i}.ts` }, readOutput(60));
    b.toolCall('Bash', { command: 'npm test' }, commandOutput(40));
    b.progress();
    b.assistant([{ type: 'text', text: `Part ${n}.${i} is read and its tests pass.` }]);
  }
}

/** Objects the store holds, loose and packed. */
function storeObjects(b: Sandbox): number {
  const out = git(b.store.dir, 'count-objects', '-v');
  return Number(/^count: (\d+)$/m.exec(out)![1]) + Number(/^in-pack: (\d+)$/m.exec(out)![1]);
}

const joined = (lines: Buffer[]) => Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')]));

describe('snapshot of a log trimmed in place by the PreCompact hook', () => {
  it('models only what follows the history its parent recorded, and its facts are the whole log’s', async () => {
    box = await sandbox();
    const b = new SessionBuilder();
    segment(b, 0);
    b.compact('1. Parts 0 read.');
    segment(b, 1);
    b.compact('1. Parts 1 read.');
    segment(b, 2);
    const path = installSession(box, CWD, b.sessionId, b.text());

    const first = await takeSnapshot(box.store, path, LONG_LOG);
    expect(first.meta.history?.pages).toBeGreaterThan(0);
    const boundary = readFileSync(path).lastIndexOf('"compact_boundary"');
    expect(first.meta.history!.bytes).toBeLessThanOrEqual(boundary);

    // The hook's trim, then the compaction and the session going on.
    const afterFirst = storeObjects(box);
    const trimmed = await trimSession(path, { keepHistory: true, historyAsIs: true });
    expect(trimmed.verify.ok).toBe(true);
    writeFileSync(path, joined(trimmed.lines));
    const more = new SessionBuilder();
    (more as any).sessionId = b.sessionId;
    more.tip = b.tip;
    (more as any).clock = (b as any).clock; // the session goes on later, not earlier
    more.compact('1. Parts 2 read.');
    segment(more, 3);
    appendFileSync(path, more.text());

    const second = await takeSnapshot(box.store, path, LONG_LOG);
    expect(second.growth).toBe('rewrite');
    const whole = readFileSync(path);
    expect(second.meta.facts).toEqual(storedFacts(factsOf(sessionOfBuffer(path, whole))));
    expect(second.meta.history!.bytes).toBeGreaterThan(first.meta.history!.bytes);
    // The history's pages are the parent's: only the trimmed tail and what followed are new.
    expect(second.newBytes).toBeLessThanOrEqual(whole.length - first.meta.history!.bytes);
    expect(second.newBytes).toBeLessThan(whole.length / 2);
    expect(second.modelledBytes).toBe(whole.length - first.meta.history!.bytes);
    // It stores what is new and nothing else: the new pages, its meta.json, the trees that changed
    // (the root, the log folder and the page folders holding new pages) and the commit.
    expect(second.newPages).toBeLessThan(second.pages);
    expect(storeObjects(box) - afterFirst).toBeLessThanOrEqual(second.newPages + 1 + 2 + Math.ceil(second.pages / PAGES_PER_GROUP) + 1);
    expect(storeObjects(box) - afterFirst).toBeGreaterThanOrEqual(second.newPages + 1);
  });

  it('models the whole log when its first pages are not the recorded history', async () => {
    box = await sandbox();
    const b = new SessionBuilder();
    segment(b, 0);
    b.compact('1. Parts 0 read.');
    segment(b, 1);
    const path = installSession(box, CWD, b.sessionId, b.text());
    await takeSnapshot(box.store, path, LONG_LOG);
    // Trimmed in full (history stripped too): nothing before the boundary kept its bytes.
    writeFileSync(path, joined((await trimSession(path, { keepHistory: true })).lines));
    const second = await takeSnapshot(box.store, path, LONG_LOG);
    expect(second.meta.facts).toEqual(storedFacts(factsOf(sessionOfBuffer(path, readFileSync(path)))));
    expect(second.modelledBytes).toBe(readFileSync(path).length);
  });
});
