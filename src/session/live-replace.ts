// Replacing a log that Claude Code may be appending to (it appends a line at a time, by path):
// the new content goes to a temp file beside the log, every line appended meanwhile is carried
// into it, and it is renamed over the log only once nothing new has arrived. A line that still
// reaches the old file in the instant of the rename is carried after it. Nothing older is ever
// copied over something newer.

import { createHash } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { open, realpath, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CmvError, fromSystemError } from '../errors.js';

/** A log opened for an in-place change: the file (inode) Claude Code appends to until the rename. */
export interface LiveLog {
  path: string;
  handle: FileHandle;
  /** As opened: mode and mtime are given to what replaces it. */
  stats: Stats;
}

const NEWLINE = 0x0a;
/** Bytes of the log's end compared before the rename, and fingerprinted with its size. */
export const TAIL_BYTES = 64 * 1024;
const HEAD_BYTES = 4 * 1024;
/** How long a line without its '\n' may stay so before it is taken as the log's (torn) end. */
const PARTIAL_WAIT_MS = 250;
/** How long the old file is watched after the rename for a write that had opened it before. */
const SETTLE_MS = 50;
/** Appended bytes are carried this many at a time (a line longer than this goes in pieces, as it is). */
const CARRY_CHUNK_BYTES = 8 * 1024 * 1024;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function kindOf(info: Stats): string {
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** Only a regular file is changed in place: a device or FIFO would be replaced by a file, or hang. */
export function assertRegularFile(path: string, info: Stats): void {
  if (info.isFile()) return;
  throw new CmvError('BAD_INPUT', `${path} is ${kindOf(info)}, not a session log`, {
    hint: 'cmv changes only regular .jsonl logs (from ~/.claude/projects) in place',
    details: { reason: 'not-a-regular-file' },
  });
}

/** The file itself, not a symlink to it: a rename over a symlink would replace the link. */
export async function realLogPath(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    throw fromSystemError(error, path);
  }
}

/** A system error (EACCES on the backups folder, ENOSPC) as a CmvError naming the file it hit. */
export function asCmvError(error: unknown, path: string): unknown {
  if (error instanceof CmvError || !(error instanceof Error) || typeof (error as NodeJS.ErrnoException).code !== 'string') return error;
  return fromSystemError(error, (error as NodeJS.ErrnoException).path ?? path);
}

export async function openLiveLog(path: string): Promise<LiveLog> {
  let info: Stats;
  try {
    info = await stat(path);
  } catch (error) {
    throw fromSystemError(error, path);
  }
  assertRegularFile(path, info);
  let handle: FileHandle;
  try {
    // O_NONBLOCK: should the path have become a FIFO since the stat, opening it must not hang.
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw fromSystemError(error, path);
  }
  const opened = await handle.stat();
  if (!opened.isFile()) {
    await handle.close();
    assertRegularFile(path, opened);
  }
  return { path, handle, stats: opened };
}

export async function readAt(handle: FileHandle, start: number, end: number): Promise<Buffer> {
  const out = Buffer.allocUnsafe(Math.max(0, end - start));
  let done = 0;
  while (done < out.length) {
    const { bytesRead } = await handle.read(out, done, out.length - done, start + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done === out.length ? out : out.subarray(0, done);
}

/** The length of the file's complete lines within its first `size` bytes (0: not one '\n'). */
export async function completeLength(handle: FileHandle, size: number): Promise<number> {
  for (let end = size; end > 0;) {
    const start = Math.max(0, end - TAIL_BYTES);
    const chunk = await readAt(handle, start, end);
    const at = chunk.lastIndexOf(NEWLINE);
    if (at >= 0) return start + at + 1;
    end = start;
  }
  return 0;
}

/**
 * Names the first `bytes` of a file that only grows at its end: its size, head and tail. Two
 * files with one fingerprint hold the same lines as far as an appending writer could change them.
 */
export async function fingerprint(handle: FileHandle, bytes: number): Promise<string> {
  const hash = createHash('sha256').update(`${bytes}\n`);
  hash.update(await readAt(handle, 0, Math.min(HEAD_BYTES, bytes)));
  hash.update(await readAt(handle, Math.max(0, bytes - TAIL_BYTES), bytes));
  return hash.digest('hex').slice(0, 32);
}

export interface CarryOptions {
  /** Rewrites a carried line (its bytes, without the '\n'); default: kept as it is. */
  relink?: (line: Buffer) => Buffer;
  /** Give up before the rename after this time (ms since the epoch): the log is left as it is. */
  deadline?: number;
  /** The log's bytes just before `from` as the new content accounts for them: checked before the rename. */
  expectTail: Buffer;
  /**
   * Work of the caller's that can wait until the log is replaced (an in-place trim's kept history
   * chain, written for the next trim): started once the old file is being watched for late lines,
   * so it runs while that watch sleeps instead of before it.
   */
  whileSettling?: () => void;
}

export interface Replaced {
  /** Bytes of the log carried into the new content before the rename. */
  carried: number;
  /** Bytes that reached the old file at the rename, appended after it. */
  late: number;
  /** Lines carried, both kinds. */
  lines: number;
  /** Size of the new log as cmv left it (without lines appended by others since). */
  bytes: number;
  /** Something that went wrong after the rename (the log is replaced all the same). */
  problem?: string;
}

async function syncDir(path: string): Promise<void> {
  const dir = await open(dirname(path), 'r').catch(() => undefined);
  await dir?.sync().catch(() => {});
  await dir?.close().catch(() => {});
}

/** Complete lines of `chunk`, each passed through `relink`, and how many bytes they took. */
function carriedLines(chunk: Buffer, relink: ((line: Buffer) => Buffer) | undefined): { out: Buffer[]; used: number; lines: number } {
  const used = chunk.lastIndexOf(NEWLINE) + 1;
  if (used === 0) return { out: [], used: 0, lines: 0 };
  if (!relink) return { out: [chunk.subarray(0, used)], used, lines: chunk.subarray(0, used).filter((b) => b === NEWLINE).length };
  const out: Buffer[] = [];
  let lines = 0;
  for (let start = 0; start < used;) {
    const end = chunk.indexOf(NEWLINE, start);
    out.push(relink(chunk.subarray(start, end)), Buffer.from('\n'));
    lines++;
    start = end + 1;
  }
  return { out, used, lines };
}

async function writeAll(handle: FileHandle, pieces: Buffer[], position: number): Promise<number> {
  let at = position;
  for (const piece of pieces) {
    for (let done = 0; done < piece.length;) {
      const { bytesWritten } = await handle.write(piece, done, piece.length - done, at);
      done += bytesWritten;
      at += bytesWritten;
    }
  }
  return at - position;
}

/**
 * Renames `tempPath` (the new content, which accounts for the log's first `from` bytes) over the
 * log, carrying what was appended after `from`. Before the rename the temp file is removed on any
 * failure and the log is left as it was.
 */
export async function replaceLive(log: LiveLog, tempPath: string, from: number, options: CarryOptions): Promise<Replaced> {
  let out: FileHandle | undefined;
  let renamed = false;
  try {
    out = await open(tempPath, 'r+');
    let outSize = (await out.stat()).size;
    let at = from;
    let lines = 0;
    let partialSince: number | undefined;
    let syncs = 0;
    let syncedAt = -1;
    const tailOk = async () => (await readAt(log.handle, from - options.expectTail.length, from)).equals(options.expectTail);
    if (!(await tailOk())) throw rewritten(log.path);
    for (;;) {
      if (options.deadline !== undefined && Date.now() > options.deadline) {
        throw new CmvError('CONFLICT', `${log.path} kept changing; it was left as it was`, { hint: 'try again once Claude Code is idle', details: { reason: 'deadline' } });
      }
      const now = await log.handle.stat();
      if (now.size < at) throw rewritten(log.path);
      if (now.size > at) {
        const chunk = await readAt(log.handle, at, Math.min(now.size, at + CARRY_CHUNK_BYTES));
        const carried = carriedLines(chunk, options.relink);
        if (carried.used > 0) {
          outSize += await writeAll(out, carried.out, outSize);
          at += carried.used;
          lines += carried.lines;
          partialSince = undefined;
          continue;
        }
        // Only part of a line: a write under way, or a log that ends without its '\n' for good.
        partialSince ??= Date.now();
        if (Date.now() - partialSince < PARTIAL_WAIT_MS) {
          await sleep(5);
          continue;
        }
        outSize += await writeAll(out, [chunk], outSize);
        at += chunk.length;
        continue;
      }
      // Nothing new. The bulk is synced on the first quiet rounds; the rename waits for no sync
      // after the last look, so the window a line could slip through is a few system calls wide.
      if (syncedAt !== at && syncs < 4) {
        await out.sync();
        syncs++;
        syncedAt = at;
        continue;
      }
      const current = await stat(log.path).catch((error: unknown) => {
        throw fromSystemError(error, log.path);
      });
      if (current.ino !== log.stats.ino || current.dev !== log.stats.dev) {
        throw new CmvError('CONFLICT', `${log.path} was replaced by another program meanwhile; it was left as it is`, { hint: 'run the command again' });
      }
      if (!(await tailOk())) throw rewritten(log.path);
      // The result keeps the log's mtime (when Claude Code last wrote it): an in-place change
      // does not make an old session the latest one.
      await out.utimes(now.atime, now.mtime);
      if ((await log.handle.stat()).size !== at) continue;
      await rename(tempPath, log.path);
      renamed = true;
      break;
    }
    const carried = at - from;
    // From here the log is replaced: nothing may throw, a problem is only reported.
    let problem: string | undefined;
    let late = 0;
    try {
      await out.sync();
      await syncDir(log.path);
      late = await carryLate(log, at, (await out.stat()).ino, options.relink, (n) => (lines += n), options.whileSettling);
    } catch (error) {
      problem = (error as Error).message;
    }
    return { carried, late, lines, bytes: outSize + late, problem };
  } catch (error) {
    if (!renamed) await unlink(tempPath).catch(() => {});
    throw error;
  } finally {
    await out?.close().catch(() => {});
  }
}

/** Lines a writer put in the old file at the rename (it had opened it just before): appended after. */
async function carryLate(log: LiveLog, from: number, newIno: number, relink: ((line: Buffer) => Buffer) | undefined, countLines: (n: number) => void, whileSettling?: () => void): Promise<number> {
  let at = from;
  let late = 0;
  let partialSince: number | undefined;
  let quiet = 0;
  let meanwhile = whileSettling;
  for (;;) {
    const settling = sleep(partialSince === undefined ? SETTLE_MS : 10);
    meanwhile?.();
    meanwhile = undefined;
    await settling;
    const size = (await log.handle.stat()).size;
    // Two quiet looks in a row: a writer descheduled between its open and its write gets time.
    if (size <= at) {
      if (++quiet >= 2) return late;
      continue;
    }
    quiet = 0;
    const chunk = await readAt(log.handle, at, Math.min(size, at + CARRY_CHUNK_BYTES));
    let pieces: Buffer[];
    let used: number;
    const carriedNow = carriedLines(chunk, relink);
    if (carriedNow.used > 0) {
      ({ out: pieces, used } = carriedNow);
      countLines(carriedNow.lines);
      partialSince = undefined;
    } else if ((partialSince ??= Date.now()) + PARTIAL_WAIT_MS > Date.now()) {
      continue;
    } else {
      pieces = [chunk];
      used = chunk.length;
    }
    const appendTo = await open(log.path, 'a');
    try {
      if ((await appendTo.stat()).ino !== newIno) return late; // replaced by someone else since
      // One write: the log is open for appending by Claude Code too, and each write of an appender
      // lands whole at the end. Written a piece at a time (a line, then its '\n'), a line the
      // client appended between two pieces was glued to the carried one (seen under load).
      const data = pieces.length === 1 ? pieces[0] : Buffer.concat(pieces);
      for (let done = 0; done < data.length;) done += (await appendTo.write(data, done, data.length - done)).bytesWritten;
      await appendTo.sync();
    } finally {
      await appendTo.close();
    }
    late += used;
    at += used;
  }
}

function rewritten(path: string): CmvError {
  return new CmvError('CONFLICT', `${path} was rewritten (not appended to) meanwhile; it was left as it is`, {
    hint: 'another program changed the log; run the command again',
  });
}
