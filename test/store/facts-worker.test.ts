// A long log's facts modelled in a worker thread (the built cmv: the TypeScript sources have no
// compiled worker) are those modelled in this thread, part by part, history included.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { takeSnapshot } from '../../src/store/snapshot.js';
import { handedPartEnd, readHistoryChain, type HistoryChain } from '../../src/trim/history-chain.js';
import { BUILD, buildIfStale } from '../helpers/built-cli.js';
import { SessionBuilder, CWD, readOutput, commandOutput } from '../trim/session-builder.js';
import { installSession, sandbox, type Sandbox } from './helpers.js';

const boxes: Sandbox[] = [];
afterEach(() => boxes.splice(0).forEach((b) => b.cleanup()));

beforeAll(async () => {
  await buildIfStale();
}, 300_000);

function session(): SessionBuilder {
  const b = new SessionBuilder();
  for (let n = 0; n < 3; n++) {
    for (let i = 0; i < 4; i++) {
      b.user(`Part ${n}.${i}: read the next file and run the tests.`);
      b.toolCall('Read', { file_path: `${CWD}/src/part${n}-${i}.ts` }, readOutput(60));
      b.toolCall('Bash', { command: 'npm test' }, commandOutput(40));
      b.assistant([{ type: 'text', text: `Part ${n}.${i} is read and its tests pass.` }]);
    }
    if (n < 2) b.compact(`1. Parts ${n} read.`);
  }
  return b;
}

const OPTIONS = { graphMaxBytes: 0, factsWorkerBytes: 0, pageRule: { minBytes: 2 * 1024, spreadBytes: 4 * 1024, maxBytes: 16 * 1024 } };

/** The built snapshot module: the one with a compiled worker. */
async function builtSnapshot(): Promise<typeof import('../../src/store/snapshot.js')> {
  return (await import(pathToFileURL(join(BUILD, 'dist', 'store', 'snapshot.js')).href)) as typeof import('../../src/store/snapshot.js');
}

async function box(): Promise<Sandbox> {
  const made = await sandbox();
  boxes.push(made);
  return made;
}

/** The first snapshot of the session's log in a store of its own, modelled in this thread (the sources have no compiled worker). */
async function inThisThread(b: SessionBuilder, options: typeof OPTIONS & { now?: Date }) {
  const here = await box();
  return takeSnapshot(here.store, installSession(here, CWD, b.sessionId, b.text()), options);
}

describe('facts of a long log modelled in a worker thread', () => {
  it('are the facts modelled in this thread, history included', async () => {
    const built = await builtSnapshot();
    const b = session();
    const options = { ...OPTIONS, now: new Date('2026-01-01T00:00:00Z') };
    const a = await inThisThread(b, options);
    const there = await box();
    const w = await built.takeSnapshot(there.store, installSession(there, CWD, b.sessionId, b.text()), options);
    expect(a.modelledInWorker).toBe(false);
    expect(w.modelledInWorker).toBe(true);
    expect(w.meta.history?.pages).toBeGreaterThan(0);
    expect(w.meta.facts).toEqual(a.meta.facts);
    expect(w.meta.history).toEqual(a.meta.history);
    expect(w.modelledBytes).toBe(a.modelledBytes);
  });

  it('whether the worker was started before the log was read (a log named by its session id) or after (any other name), and when a parent covers it', async () => {
    const built = await builtSnapshot();
    const b = session();
    const reference = await inThisThread(b, OPTIONS);
    const there = await box();
    const other = installSession(there, CWD, 'renamed-log', b.text());
    const late = await built.takeSnapshot(there.store, other, OPTIONS);
    expect(late.modelledInWorker).toBe(true);
    expect(late.meta.facts).toEqual(reference.meta.facts);
    // Grown by a little: the parent's facts cover the rest, the little is modelled too (no worker needed but allowed).
    const named = installSession(there, CWD, b.sessionId, b.text());
    const first = await built.takeSnapshot(there.store, named, OPTIONS);
    expect(first.meta.facts).toEqual(reference.meta.facts);
    const again = await built.takeSnapshot(there.store, named, OPTIONS);
    expect(again.parent).toBe(first.id);
    expect(again.meta.facts).toEqual(reference.meta.facts);
  });

  it('hands the chain of the history’s first part, read with the facts, as the trim would read it (a first snapshot, its worker started before the read)', async () => {
    const built = await builtSnapshot();
    const b = session();
    const reference = await inThisThread(b, OPTIONS);
    const there = await box();
    const log = installSession(there, CWD, b.sessionId, b.text());
    const handed: (HistoryChain | undefined)[] = [];
    const first = await built.takeSnapshot(there.store, log, { ...OPTIONS, handChain: (chain) => handed.push(chain) });
    expect(first.modelledInWorker).toBe(true);
    expect(first.meta.facts).toEqual(reference.meta.facts);
    expect(handed).toHaveLength(1);
    const data = readFileSync(log);
    const boundary = data.lastIndexOf(0x0a, data.lastIndexOf('"compact_boundary"')) + 1;
    // The history's first part: the trim reads the rest itself meanwhile.
    const part = handedPartEnd(data, boundary);
    expect(part).toBeLessThan(boundary);
    const read = await readHistoryChain(log, part);
    expect(handed[0]).toEqual(read);
    expect(handed[0]!.sha256).toBe(createHash('sha256').update(data.subarray(0, part)).digest('hex'));
    // A snapshot with a parent models only what is new: no chain, said at once.
    const again: (HistoryChain | undefined)[] = [];
    await built.takeSnapshot(there.store, log, { ...OPTIONS, handChain: (chain) => again.push(chain) });
    expect(again).toEqual([undefined]);
  });
});
