// The history a hook trim copies as it is (every line before the last compaction boundary) is read
// only for its place in the chain, and at the next compaction most of it is the same bytes again:
// the lines as read are kept beside the log's backups, with the length and SHA-256 of the bytes they
// stand for, and taken instead of reading those lines again when the log still starts with exactly
// those bytes (checked as the lines stream past: a changed prefix reads everything again), and
// only by the cmv version that read them (another may read a line otherwise).

import { createHash, type Hash } from 'node:crypto';
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SessionLine } from '../session/conversation.js';
import { readRawLines, type RawLine } from '../session/line-reader.js';
import { skimEntry } from '../session/skim.js';
import { parseLine } from '../session/entry.js';
import { shared } from '../session/interned.js';
import { writeFileAtomic } from '../session/write.js';
import { cmvVersion } from '../version.js';
import { workerAnswer } from '../worker-answer.js';

/** The file in a log's backup folder (not .json or .jsonl: those are backups and their records). */
export const HISTORY_CHAIN_FILE = 'history-chain.cache';

export interface HistoryChain {
  format: 1;
  /** The cmv version whose reader made the lines. */
  cmv: string;
  /** The prefix of the log the lines stand for, in bytes (it ends at a line's end). */
  bytes: number;
  /** SHA-256 of those bytes (faster than SHA-1 where the CPU has SHA extensions: 25 vs 43 ms for 43 MB here). */
  sha256: string;
  /** The lines as pass 1 read them for their chain, without their bytes. */
  lines: SessionLine[];
}

/** Thrown by pass 1 when the log no longer starts with the bytes a HistoryChain stands for. */
export class HistoryChanged extends Error {}

/** The kept chain of a log's history, or undefined when there is none or it cannot be read. */
export async function loadHistoryChain(dir: string): Promise<HistoryChain | undefined> {
  try {
    const value = JSON.parse(await readFile(join(dir, HISTORY_CHAIN_FILE), 'utf8')) as HistoryChain;
    if (value?.format !== 1 || typeof value.bytes !== 'number' || typeof value.sha256 !== 'string' || value.cmv !== cmvVersion() || !Array.isArray(value.lines)) return undefined;
    return interned(value);
  } catch {
    return undefined;
  }
}

/** A chain read elsewhere (a file, a worker) with one string per distinct value, as the reader shares them. */
function interned(chain: HistoryChain): HistoryChain {
  for (const line of chain.lines) {
    for (const entry of line.entries) {
      entry.type = shared(entry.type) ?? entry.type;
      if (entry.sessionId !== undefined) entry.sessionId = shared(entry.sessionId);
      if (entry.subtype !== undefined) entry.subtype = shared(entry.subtype);
      if (entry.agentId !== undefined) entry.agentId = shared(entry.agentId);
    }
  }
  return chain;
}

/** A line of the history as pass 1 reads it: its place in the chain only (skimmed, its payload never decoded). */
export function historyLine(raw: RawLine): SessionLine {
  const entry = skimEntry(raw.bytes, raw.index, true);
  const parsed = entry ? { status: 'entry' as const, entries: [entry], error: undefined } : parseLine(raw.bytes, raw.index);
  return { index: raw.index, offset: raw.offset, length: raw.bytes.length, terminated: raw.terminated, status: parsed.status, entries: parsed.entries, error: parsed.error };
}

/**
 * The chain of the lines that start before `bytes` in the file at `path` (a log: an appending
 * writer never changes those bytes), read whole; `digests` as HistoryReader takes them (a prefix's
 * digest known already is not made again).
 */
export async function readHistoryChain(path: string, bytes: number, digests?: ReadonlyMap<number, string>): Promise<HistoryChain | undefined> {
  const reader = new HistoryReader(undefined, digests);
  const lines: SessionLine[] = [];
  for await (const raw of readRawLines(path, { recycle: true, end: bytes })) {
    if (raw.offset >= bytes) break;
    reader.line(raw.index, raw.offset, raw.bytes, raw.terminated);
    lines.push(historyLine(raw));
  }
  return reader.chain(lines, lines.length);
}

/**
 * The share of a long history whose chain the PreCompact hook's first snapshot hands its trim: the
 * snapshot's worker reads the history from its start while the trim backs the log up and reads
 * what follows the history, then the trim reads the history's last part itself, and the two end
 * about together (the trim, idle until the chain came, waited 0.3-0.4 s for a whole one on the
 * 50 MB bench log). Since the history goes to the output while pass 1 reads (AtomicWriter.prefill),
 * the trim's own read ended 140-170 ms after a 60% chain came; with 70% the two end within 30-70 ms.
 */
export const HANDED_SHARE = 0.7;

/** Where the handed part of a history `bytes` long ends: the first line start at or after HANDED_SHARE of it, found by `newlineFrom`. */
function handedEnd(bytes: number, newlineFrom: (at: number) => number): number {
  const at = Math.floor(bytes * HANDED_SHARE);
  if (at <= 0) return bytes;
  const newline = newlineFrom(at - 1);
  return newline < 0 || newline + 1 >= bytes ? bytes : newline + 1;
}

/** handedEnd of a history held in memory. */
export function handedPartEnd(data: Buffer, bytes: number): number {
  return handedEnd(bytes, (at) => data.subarray(0, bytes).indexOf(0x0a, at));
}

/** handedEnd of the history of the file at `path` (read from the share on, up to the history's end). */
export async function handedPartEndOf(path: string, bytes: number): Promise<number> {
  const at = Math.floor(bytes * HANDED_SHARE);
  if (at <= 0) return bytes;
  const handle = await open(path, 'r');
  let newline = -1;
  try {
    const chunk = Buffer.allocUnsafe(64 * 1024);
    for (let from = at - 1; from < bytes && newline < 0;) {
      const { bytesRead } = await handle.read(chunk, 0, Math.min(chunk.length, bytes - from), from);
      if (bytesRead === 0) break;
      const found = chunk.subarray(0, bytesRead).indexOf(0x0a);
      if (found >= 0) newline = from + found;
      from += bytesRead;
    }
  } finally {
    await handle.close();
  }
  return handedEnd(bytes, () => newline);
}

/** Lines in the first `bytes` of the file (they end there: `bytes` is the start of a line). */
export async function countLinesBefore(path: string, bytes: number): Promise<number> {
  const handle = await open(path, 'r');
  try {
    const chunk = Buffer.allocUnsafe(Math.min(bytes, 8 * 1024 * 1024));
    let lines = 0;
    for (let at = 0; at < bytes;) {
      const { bytesRead } = await handle.read(chunk, 0, Math.min(chunk.length, bytes - at), at);
      if (bytesRead === 0) break;
      const piece = chunk.subarray(0, bytesRead);
      for (let i = piece.indexOf(0x0a); i >= 0; i = piece.indexOf(0x0a, i + 1)) lines++;
      at += bytesRead;
    }
    return lines;
  } finally {
    await handle.close();
  }
}

/**
 * A history at least this long, with no kept chain, is read in a worker thread while pass 1
 * reads what follows it (a session's first compaction the hook sees: 43 MB of history in the
 * 50 MB bench log, about 0.2 s to skim).
 */
export const HISTORY_WORKER_BYTES = 8 * 1024 * 1024;

const HISTORY_WORKER = new URL('./history-worker.js', import.meta.url);

/** The history's chain read in a worker thread; undefined when there is no compiled worker (the TypeScript sources) or it failed. */
export function historyChainInWorker(path: string, bytes: number): Promise<HistoryChain | undefined> | undefined {
  // As JSON text: a structured clone of ~17,000 lines took 0.2 s (both threads), the text 0.06.
  return workerAnswer<string | undefined>(HISTORY_WORKER, { path, bytes })?.then((text) => (text ? historyChainFromText(text) : undefined));
}

/** A chain that came as JSON text from a worker thread (this trim's, or a snapshot's: store/facts-worker.ts); kept as that text. */
export function historyChainFromText(text: string): HistoryChain | undefined {
  try {
    const chain = interned(JSON.parse(text) as HistoryChain);
    asText.set(chain, text);
    return chain;
  } catch {
    return undefined;
  }
}

/** Chains that came as JSON text (from a worker thread): kept as that text, not serialised again. */
const asText = new WeakMap<HistoryChain, string>();

/** Keeps the chain of a log's history for the next trim (best effort: a failure only costs a read). */
export async function saveHistoryChain(dir: string, chain: HistoryChain): Promise<void> {
  try {
    // Not synced: a chain that did not reach the disk is read again from the log (loadHistoryChain checks it).
    await writeFileAtomic(join(dir, HISTORY_CHAIN_FILE), [asText.get(chain) ?? JSON.stringify(chain)], 0o600, false);
  } catch {
    // the next trim reads the history again
  }
}

/**
 * Follows pass 1 over the lines copied as they are: hands back a kept line in place of reading it,
 * checks the kept prefix's bytes when its end streams past, and digests the whole copied prefix
 * for the chain to keep next.
 */
export class HistoryReader {
  private readonly hash: Hash = createHash('sha256');
  private hashed = 0;
  private checked = false;
  private used = false;

  /**
   * `digests`: SHA-256 of the file's first N bytes by N, hashed already (the backup's read hashes
   * them as it goes): given for every prefix this reader must check or keep, it hashes nothing.
   */
  constructor(
    private readonly kept: HistoryChain | undefined,
    private readonly digests?: ReadonlyMap<number, string>,
  ) {}

  /** SHA-256 of the first `bytes` bytes read (they were all read). */
  private digestOf(bytes: number): string | undefined {
    return this.digests ? this.digests.get(bytes) : this.hash.copy().digest('hex');
  }

  /** The kept line standing for this one (same place, same length), or undefined to read it. */
  line(index: number, offset: number, bytes: Buffer, terminated: boolean): SessionLine | undefined {
    if (!this.digests) {
      this.hash.update(bytes);
      if (terminated) this.hash.update(NEWLINE);
    }
    this.hashed = offset + bytes.length + (terminated ? 1 : 0);
    const kept = this.kept;
    if (!kept || this.checked) return undefined;
    const line = kept.lines[index];
    if (!line || line.offset !== offset || line.length !== bytes.length || line.terminated !== terminated || this.hashed > kept.bytes) throw new HistoryChanged();
    this.used = true;
    if (this.hashed === kept.bytes) {
      if (this.digestOf(kept.bytes) !== kept.sha256) throw new HistoryChanged();
      this.checked = true;
    }
    return line;
  }

  /** After the copied prefix: throws if a kept line was used but its prefix never checked. */
  finish(): void {
    if (this.used && !this.checked) throw new HistoryChanged();
  }

  /** The chain to keep for the lines read (the first `count` of `lines`), ending where they end. */
  chain(lines: SessionLine[], count: number): HistoryChain | undefined {
    if (count === 0) return undefined;
    const sha256 = this.digestOf(this.hashed);
    if (sha256 === undefined) return undefined;
    return { format: 1, cmv: cmvVersion(), bytes: this.hashed, sha256, lines: lines.slice(0, count) };
  }
}

const NEWLINE = Buffer.from('\n');
