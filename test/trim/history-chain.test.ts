// The hook's trim keeps the chain of the history it copies as it is (history-chain.ts) and takes
// it at the next trim instead of reading those lines again, but only while the log still starts
// with the very bytes the kept chain stands for.

import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { trimSession } from '../../src/trim/trim.js';
import { trimToDestination } from '../../src/trim/apply.js';
import { backupFolder } from '../../src/trim/backups.js';
import { HANDED_SHARE, handedPartEnd, handedPartEndOf, HISTORY_CHAIN_FILE, loadHistoryChain, readHistoryChain, saveHistoryChain, type HistoryChain } from '../../src/trim/history-chain.js';
import { SessionBuilder, readOutput, removeWrittenSessions, CWD } from './session-builder.js';

afterAll(removeWrittenSessions);

const AS_IS = { keepHistory: true, historyAsIs: true } as const;
const joined = (lines: Buffer[]) => Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')]));

function compactedLog(): string {
  const b = new SessionBuilder();
  b.user('Read the parser.');
  b.toolCall('Read', { file_path: `${CWD}/src/parser.ts` }, readOutput(80));
  b.assistant([{ type: 'text', text: 'The parser is recursive descent.' }]);
  b.compact('1. The user asked about the parser.');
  b.user('Now read the lexer.');
  b.toolCall('Read', { file_path: `${CWD}/src/lexer.ts` }, readOutput(80));
  b.assistant([{ type: 'text', text: 'The lexer is table driven.' }]);
  return b.write();
}

/** The kept chain with the first user entry's uuid changed: a model built from it shows the change. */
function tampered(chain: HistoryChain): HistoryChain {
  const copy = JSON.parse(JSON.stringify(chain)) as HistoryChain;
  const entry = copy.lines.flatMap((l) => l.entries).find((e) => e.type === 'user')!;
  entry.uuid = 'tampered-0000-4000-8000-000000000000';
  return copy;
}

describe('the kept history chain', () => {
  it('stands for the copied prefix and gives the same trim as reading it', async () => {
    const path = compactedLog();
    const input = readFileSync(path);
    const prefixEnd = input.lastIndexOf(10, input.indexOf('"compact_boundary"')) + 1;
    const first = await trimSession(path, AS_IS, { history: {} });
    expect(first.verify.faults).toEqual([]);
    const chain = first.historyChain!;
    expect(chain.bytes).toBe(prefixEnd);
    expect(chain.lines.length).toBeGreaterThan(0);

    const again = await trimSession(path, AS_IS, { history: { kept: chain } });
    expect(again.verify).toEqual(first.verify);
    expect(joined(again.lines).equals(joined(first.lines))).toBe(true);
    expect(again.historyChain!.sha256).toBe(chain.sha256);
    // It is taken, not read again: a change made to it shows in the model.
    const taken = await trimSession(path, AS_IS, { history: { kept: tampered(chain) } });
    expect(taken.index.conversation.byUuid.has('tampered-0000-4000-8000-000000000000')).toBe(true);
  });

  it('is checked and kept from prefix digests given (the backup hashed them) without hashing again, and a wrong digest is not trusted', async () => {
    const path = compactedLog();
    const input = readFileSync(path);
    const prefixEnd = input.lastIndexOf(10, input.indexOf('"compact_boundary"')) + 1;
    const sha = createHash('sha256').update(input.subarray(0, prefixEnd)).digest('hex');
    const first = await trimSession(path, AS_IS, { history: {} });
    const given = await trimSession(path, AS_IS, { history: { digests: new Map([[prefixEnd, sha]]) } });
    expect(given.historyChain).toEqual(first.historyChain);
    // With the kept chain: its prefix checked against the digest, the tampered one taken as before.
    const taken = await trimSession(path, AS_IS, { history: { kept: tampered(first.historyChain!), digests: new Map([[prefixEnd, sha]]) } });
    expect(taken.index.conversation.byUuid.has('tampered-0000-4000-8000-000000000000')).toBe(true);
    // A digest that does not match the kept chain's: the chain is not taken, the history read again.
    const wrong = await trimSession(path, AS_IS, { history: { kept: tampered(first.historyChain!), digests: new Map([[prefixEnd, '0'.repeat(64)]]) } });
    expect(wrong.index.conversation.byUuid.has('tampered-0000-4000-8000-000000000000')).toBe(false);
    expect(joined(wrong.lines).equals(joined(first.lines))).toBe(true);
    // Digests that miss a prefix the reader needs are not used: it hashes itself.
    const partial = await trimSession(path, AS_IS, { history: { digests: new Map([[prefixEnd - 1, sha]]) } });
    expect(partial.historyChain).toEqual(first.historyChain);
  });

  it('is not taken once the log no longer starts with its bytes (same length, one byte changed)', async () => {
    const path = compactedLog();
    const chain = (await trimSession(path, AS_IS, { history: {} })).historyChain!;
    const input = readFileSync(path);
    const at = input.indexOf('Read the parser.');
    input[at + 14] = 'd'.charCodeAt(0); // "Read the parsed."
    writeFileSync(path, input);
    const fresh = await trimSession(path, AS_IS);
    const withKept = await trimSession(path, AS_IS, { history: { kept: tampered(chain) } });
    expect(withKept.index.conversation.byUuid.has('tampered-0000-4000-8000-000000000000')).toBe(false);
    expect(withKept.verify).toEqual(fresh.verify);
    expect(joined(withKept.lines).equals(joined(fresh.lines))).toBe(true);
    expect(withKept.historyChain!.sha256).not.toBe(chain.sha256);
  });

  it('is not taken when it stands for more than the history now copied', async () => {
    const path = compactedLog();
    const chain = (await trimSession(path, AS_IS, { history: {} })).historyChain!;
    const longer = { ...tampered(chain), bytes: readFileSync(path).length };
    const withKept = await trimSession(path, AS_IS, { history: { kept: longer } });
    expect(withKept.index.conversation.byUuid.has('tampered-0000-4000-8000-000000000000')).toBe(false);
    expect(withKept.verify.faults).toEqual([]);
  });

  it('reads back from its file as it was kept (a line that is not a record, an entry of another session)', async () => {
    const path = compactedLog();
    const input = readFileSync(path).toString();
    const lines = input.split('\n');
    const other = JSON.parse(lines[1]) as { sessionId: string };
    other.sessionId = 'another-session';
    lines.splice(1, 1, JSON.stringify(other), '{"type":"user", broken');
    writeFileSync(path, lines.join('\n'));
    const chain = (await trimSession(path, AS_IS, { history: {} })).historyChain!;
    expect(chain.lines.some((l) => l.status === 'malformed')).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'cmv-history-chain-'));
    try {
      await saveHistoryChain(dir, chain);
      const loaded = await loadHistoryChain(dir);
      expect(loaded).toEqual(chain);
      // Lines read by another cmv version are not taken.
      await saveHistoryChain(dir, { ...chain, cmv: '0.0.0-other' });
      expect(await loadHistoryChain(dir)).toBeUndefined();
      await saveHistoryChain(dir, chain);
      expect(loaded!.lines.flatMap((l) => l.entries).map((e) => e.sessionId)).toEqual(chain.lines.flatMap((l) => l.entries).map((e) => e.sessionId));
      const again = await trimSession(path, AS_IS, { history: { kept: await loadHistoryChain(dir) } });
      expect(again.verify.faults).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is kept by an in-place trim beside the log's backups and taken by the next one", async () => {
    const saved = process.env.CMV_HOME;
    const scratch = mkdtempSync(join(tmpdir(), 'cmv-history-chain-home-'));
    process.env.CMV_HOME = scratch;
    try {
      const path = realpathSync(compactedLog());
      const first = await trimToDestination(path, AS_IS, { kind: 'in-place' });
      expect(first.result.verify.faults).toEqual([]);
      const dir = await backupFolder(path);
      expect(existsSync(join(dir, HISTORY_CHAIN_FILE))).toBe(true);
      const kept = (await loadHistoryChain(dir))!;
      await saveHistoryChain(dir, tampered(kept));
      const next = await trimToDestination(path, AS_IS, { kind: 'in-place' });
      expect(next.result.index.conversation.byUuid.has('tampered-0000-4000-8000-000000000000')).toBe(true);
    } finally {
      if (saved === undefined) delete process.env.CMV_HOME;
      else process.env.CMV_HOME = saved;
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

describe('a history chain handed by another reader of the same bytes (the hook’s snapshot)', () => {
  function handedSetup() {
    const path = compactedLog();
    const input = readFileSync(path);
    const prefixEnd = input.lastIndexOf(10, input.indexOf('"compact_boundary"')) + 1;
    // A first part: the history's first two lines.
    const part = input.indexOf(10, input.indexOf(10) + 1) + 1;
    const sha = (n: number) => createHash('sha256').update(input.subarray(0, n)).digest('hex');
    return {
      path,
      prefixEnd,
      part,
      digests: new Map([
        [prefixEnd, sha(prefixEnd)],
        [part, sha(part)],
      ]),
    };
  }

  it('of the whole history is taken when it stands for the bytes copied (their length and digest), and the trim is the one that reads them', async () => {
    const { path, prefixEnd, digests } = handedSetup();
    const first = await trimSession(path, AS_IS, { history: { digests } });
    expect(first.historyHanded).toBeUndefined();
    const chain = first.historyChain!;
    const handed = await trimSession(path, AS_IS, { history: { digests, handed: { bytes: prefixEnd, chain: Promise.resolve(chain) } } });
    expect(handed.historyHanded).toBe(true);
    expect(handed.historyHandedBytes).toBeUndefined();
    expect(handed.verify).toEqual(first.verify);
    expect(joined(handed.lines).equals(joined(first.lines))).toBe(true);
    expect(handed.historyChain).toEqual(chain);
    // Taken, not read: a change made to it shows in the model.
    const taken = await trimSession(path, AS_IS, { history: { digests, handed: { bytes: prefixEnd, chain: Promise.resolve(tampered(chain)) } } });
    expect(taken.historyHanded).toBe(true);
    expect(taken.index.conversation.byUuid.has('tampered-0000-4000-8000-000000000000')).toBe(true);
  });

  it('of the history’s first part is taken for that part, the rest read here, and the chain kept is the whole history’s', async () => {
    const { path, part, digests } = handedSetup();
    const first = await trimSession(path, AS_IS, { history: { digests } });
    const partChain = await readHistoryChain(path, part);
    expect(partChain!.lines.length).toBe(2);
    const handed = await trimSession(path, AS_IS, { history: { digests, handed: { bytes: part, chain: Promise.resolve(partChain) } } });
    expect(handed.historyHanded).toBe(true);
    expect(handed.historyHandedBytes).toBe(part);
    expect(handed.verify).toEqual(first.verify);
    expect(joined(handed.lines).equals(joined(first.lines))).toBe(true);
    expect(handed.historyChain).toEqual(first.historyChain);
    const taken = await trimSession(path, AS_IS, { history: { digests, handed: { bytes: part, chain: Promise.resolve(tampered(partChain!)) } } });
    expect(taken.index.conversation.byUuid.has('tampered-0000-4000-8000-000000000000')).toBe(true);
  });

  it('is not taken for other bytes (a digest that differs, another length, no digest to check it by), nor when none comes: that part is read here', async () => {
    const { path, prefixEnd, part, digests } = handedSetup();
    const first = await trimSession(path, AS_IS, { history: { digests } });
    const chain = tampered(first.historyChain!);
    const partChain = tampered((await readHistoryChain(path, part))!);
    const cases = [
      { history: { digests, handed: { bytes: prefixEnd, chain: Promise.resolve({ ...chain, sha256: '0'.repeat(64) }) } } },
      { history: { digests, handed: { bytes: prefixEnd, chain: Promise.resolve({ ...chain, bytes: prefixEnd - 1 }) } } },
      { history: { digests, handed: { bytes: part, chain: Promise.resolve(chain) } } },
      { history: { digests, handed: { bytes: part, chain: Promise.resolve({ ...partChain, sha256: '0'.repeat(64) }) } } },
      { history: { handed: { bytes: prefixEnd, chain: Promise.resolve(chain) } } },
      { history: { digests: new Map([[prefixEnd, digests.get(prefixEnd)!]]), handed: { bytes: part, chain: Promise.resolve(partChain) } } },
      { history: { digests, handed: { bytes: part, chain: Promise.resolve(undefined) } } },
    ];
    for (const target of cases) {
      const read = await trimSession(path, AS_IS, target);
      expect(read.historyHanded).toBeUndefined();
      expect(read.index.conversation.byUuid.has('tampered-0000-4000-8000-000000000000')).toBe(false);
      expect(read.verify).toEqual(first.verify);
      expect(joined(read.lines).equals(joined(first.lines))).toBe(true);
      expect(read.historyChain).toEqual(first.historyChain);
    }
  });

  it('is not waited for when a chain kept at the last trim stands for the history', async () => {
    const { path, prefixEnd, digests } = handedSetup();
    const kept = (await trimSession(path, AS_IS, { history: { digests } })).historyChain!;
    const never = new Promise<HistoryChain | undefined>(() => undefined);
    const trimmed = await trimSession(path, AS_IS, { history: { kept, digests, handed: { bytes: prefixEnd, chain: never } } });
    expect(trimmed.historyHanded).toBeUndefined();
    expect(trimmed.historyChain).toEqual(kept);
  });

  it('ends its part at the first line start at or after its share of the history, found alike in memory and in the file', async () => {
    const path = compactedLog();
    const input = readFileSync(path);
    const prefixEnd = input.lastIndexOf(10, input.indexOf('"compact_boundary"')) + 1;
    const end = handedPartEnd(input, prefixEnd);
    expect(end).toBe(await handedPartEndOf(path, prefixEnd));
    expect(end).toBeGreaterThanOrEqual(Math.floor(prefixEnd * HANDED_SHARE));
    expect(end).toBeLessThan(prefixEnd);
    expect(input[end - 1]).toBe(10);
    expect(input.subarray(Math.floor(prefixEnd * HANDED_SHARE), end - 1).includes(10)).toBe(false);
    // A history that is one line: nothing to share.
    const line = input.indexOf(10) + 1;
    expect(handedPartEnd(input, line)).toBe(line);
    expect(await handedPartEndOf(path, line)).toBe(line);
  });
});
