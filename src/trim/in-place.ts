// A trim that replaces the log itself, safe while Claude Code appends to it: the log's complete
// lines read and hashed for the backup, the trim read from those bytes of the log (an appending
// writer never changes them), the backup put in place (the log's file hard-linked, backups.ts),
// then the result renamed over the log with every line appended meanwhile carried after it
// (live-replace.ts).
// Lines carried whose parent the trim dropped are relinked to the nearest line it kept, and the
// log's last line is always kept, since the running client chains its next line to it (2.1.100:
// each line's parentUuid is the last line the client wrote; seen in the corpus and the harness).

import { open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { trimSession, type TrimResult } from './trim.js';
import { refuseUnwritable } from './refusals.js';
import type { TrimOptions } from './options.js';
import { backupFolder, dropBackup, lockLog, placeBackup, readForBackup, saveRecord, type BackupRecord } from './backups.js';
import { lastBoundaryOffset } from './last-boundary.js';
import { handedPartEndOf, loadHistoryChain, saveHistoryChain, type HistoryChain } from './history-chain.js';
import { AtomicWriter, removeStaleTemps } from '../session/write.js';
import { asCmvError, fingerprint, openLiveLog, readAt, realLogPath, replaceLive, type LiveLog, type Replaced } from '../session/live-replace.js';
import { withTopLevelValues } from '../session/skim.js';
import { CmvError } from '../errors.js';

/** A log written this recently may be open in Claude Code (as `cmv snapshot` warns). */
export const RECENT_WRITE_MS = 2 * 60 * 1000;

export interface InPlaceRequest {
  options: Partial<TrimOptions>;
  /** Who asks: `trim --in-place`, or a hook's name. */
  by: string;
  /** How long to wait for another in-place change of the same log (0: busy at once). */
  lockWaitMs: number;
  /** Give up before replacing the log after this time (ms since the epoch). */
  deadline?: number;
  now?: () => Date;
  /** The session's project lives here now (`--project-dir`): the disk checks read its files there. */
  projectDir?: string;
  /**
   * A long history with no kept chain may be read in a worker thread (HISTORY_WORKER_BYTES); false
   * when the other core is busy anyway (the PreCompact hook's snapshot models and compresses the log
   * meanwhile): the worker's start and its answer then cost more than they save.
   */
  historyWorker?: boolean;
  /**
   * The log is not replaced before this settles: the PreCompact hook trims while its snapshot
   * reads the log, which must hold the log as it was. Everything else (the backup, the trim) goes on meanwhile.
   */
  replaceAfter?: Promise<unknown>;
  /**
   * The chain of the history's first part (up to handedPartEnd of the last boundary), handed by
   * another reader of the log's bytes (the PreCompact hook's snapshot): see
   * TrimTarget.history.handed. A chain kept at the previous trim comes first.
   */
  handedHistory?: Promise<HistoryChain | undefined>;
}

export type InPlaceOutcome =
  | { status: 'trimmed'; result: TrimResult; backup: string; record: BackupRecord; carried: Replaced; warnings: string[] }
  /** The trim would not make the log smaller: it was left alone and no backup kept. */
  | { status: 'unchanged'; result: TrimResult; warnings: string[] }
  | { status: 'busy' };

/** Refuses what is not a Claude Code log: its first lines must be JSON records with a type. */
async function assertLooksLikeLog(log: LiveLog): Promise<void> {
  const size = log.stats.size;
  const head = await readAt(log.handle, 0, Math.min(size, 1024 * 1024));
  let records = 0;
  let others = 0;
  for (let start = 0; start < head.length && records + others < 20;) {
    const end = head.indexOf(0x0a, start);
    if (end < 0) break;
    const line = head.subarray(start, end).toString('utf8').trim();
    start = end + 1;
    if (line === '') continue;
    try {
      const value = JSON.parse(line) as unknown;
      if (value && typeof value === 'object' && !Array.isArray(value) && typeof (value as { type?: unknown }).type === 'string') records++;
      else others++;
    } catch {
      others++;
    }
  }
  // A first line longer than the window (a pasted image): a JSON object naming its type.
  if (records + others === 0 && /^\s*\{/.test(head.subarray(0, 64).toString('latin1')) && head.includes('"type":')) records++;
  if (records === 0) {
    throw new CmvError('BAD_INPUT', size === 0 ? `${log.path} is empty: nothing to trim` : `${log.path} is not a Claude Code session log: its first lines are not JSON records with a "type"`, {
      hint: 'cmv changes only .jsonl logs from ~/.claude/projects in place; check the path',
      details: { reason: 'not-a-log' },
    });
  }
}

/** Relinks a carried line whose parent the trim dropped to that parent's nearest kept ancestor. */
export function relinkerOf(result: TrimResult): { relink: (line: Buffer) => Buffer; relinked: Record<string, string>; keptAncestor: (uuid: string) => string | null | undefined } {
  const kept = result.trimmed.conversation.byUuid;
  const original = result.index.conversation.byUuid;
  const relinked: Record<string, string> = {};
  const keptAncestor = (uuid: string): string | null | undefined => {
    let at: string | null | undefined = uuid;
    const seen = new Set<string>();
    while (typeof at === 'string' && !kept.has(at)) {
      if (seen.has(at)) return undefined;
      seen.add(at);
      const entry = original.get(at);
      if (!entry) return undefined; // not a line of the trimmed log's original: left alone
      at = entry.parentUuid ?? null;
    }
    return at;
  };
  const relink = (line: Buffer): Buffer => {
    if (line.indexOf('"parentUuid":"') < 0) return line;
    let record: { uuid?: unknown; parentUuid?: unknown };
    try {
      record = JSON.parse(line.toString('utf8')) as typeof record;
    } catch {
      return line;
    }
    const parent = record.parentUuid;
    if (typeof parent !== 'string' || kept.has(parent) || !original.has(parent)) return line;
    const ancestor = keptAncestor(parent);
    if (ancestor === undefined || ancestor === parent) return line;
    if (typeof record.uuid === 'string') relinked[record.uuid] = parent;
    return withTopLevelValues(line, new Map([['parentUuid', JSON.stringify(ancestor)]])) ?? Buffer.from(JSON.stringify({ ...record, parentUuid: ancestor }));
  };
  return { relink, relinked, keptAncestor };
}

/**
 * The original's last line with a uuid, when the trim dropped it: the running client chains its
 * next line to that uuid, so it goes back at the end of the result (relinked like a carried line).
 */
async function droppedLastLine(result: TrimResult, log: string, relink: (line: Buffer) => Buffer): Promise<Buffer | undefined> {
  const entries = result.index.conversation.entries;
  let last: (typeof entries)[number] | undefined;
  for (const entry of entries) if (entry.uuid && (!last || entry.line > last.line)) last = entry;
  if (!last?.uuid || result.trimmed.conversation.byUuid.has(last.uuid)) return undefined;
  const line = result.index.lines.find((l) => l.index === last!.line);
  if (!line) return undefined;
  const handle = await open(log, 'r');
  try {
    return relink(await readAt(handle, line.offset, line.offset + line.length));
  } finally {
    await handle.close();
  }
}

export async function trimInPlace(logPath: string, request: InPlaceRequest): Promise<InPlaceOutcome> {
  try {
    return await trimResolved(await realLogPath(logPath), request);
  } catch (error) {
    throw asCmvError(error, logPath);
  }
}

async function trimResolved(path: string, request: InPlaceRequest): Promise<InPlaceOutcome> {
  const lock = await lockLog(path, request.lockWaitMs);
  if (!lock) return { status: 'busy' };
  let live: LiveLog | undefined;
  try {
    live = await openLiveLog(path);
    await assertLooksLikeLog(live);
    const now = request.now?.() ?? new Date();
    const warnings: string[] = [];
    const age = now.getTime() - live.stats.mtimeMs;
    if (age < RECENT_WRITE_MS) {
      warnings.push(
        `the session was written ${Math.max(0, Math.round(age / 1000))}s ago and may be open in Claude Code: lines it appends are carried into the trimmed log, but a running Claude Code keeps sending the untrimmed conversation until it is resumed`,
      );
    }
    await removeStaleTemps(dirname(path));
    // A trim that copies the history as it is reads it against the chain kept at the last trim:
    // the backup's read hashes the prefixes that chain and this one stand for as it goes.
    const historyAsIs = request.options.historyAsIs === true;
    const kept = historyAsIs ? await loadHistoryChain(await backupFolder(path)) : undefined;
    const boundary = historyAsIs ? await lastBoundaryOffset(path, live.stats.size) : undefined;
    // A chain handed for the history's first part (the hook's snapshot): that part's digest too.
    const handedPart = request.handedHistory && !kept && boundary !== undefined ? await handedPartEndOf(path, boundary) : undefined;
    const digestAt = [kept?.bytes, boundary, handedPart].filter((n): n is number => n !== undefined);
    // The log's complete lines are read and hashed for the backup; it is placed (linked) just
    // before the log is replaced, and the trim reads those bytes of the log meanwhile (Claude
    // Code only appends: what it appends is carried).
    const backup = await readForBackup(live, request.by, now, digestAt);
    const { record, dir, prefixDigests } = backup;
    let writer: AtomicWriter | undefined;
    let done = false;
    try {
      writer = await AtomicWriter.open(path, record.mode);
      const streamed = request.options.budget === undefined;
      // The history copied as it is was read at the previous trim: its chain is taken as kept then.
      const handed = handedPart !== undefined ? { bytes: handedPart, chain: request.handedHistory! } : undefined;
      // The boundary was found in the log before the backup copied it: the same bytes when the log had no more then.
      const known = { bytes: live.stats.size, offset: boundary };
      const history = historyAsIs ? { kept, digests: prefixDigests, handed, boundary: known, ...(request.historyWorker === false ? { workerBytes: Infinity } : {}) } : undefined;
      const result = await trimSession(path, request.options, { fileHoldsOnDisk: true, projectDir: request.projectDir, writer: streamed ? writer : undefined, history, bytes: record.file!.bytes });
      refuseUnwritable(result);
      // The history the trim copies is the same bytes in the log before and after it: its chain
      // serves the next trim either way, and is written (serialised: tens of ms for a long
      // history) while the replaced log's old file is watched for late lines.
      const historyChain = result.historyChain;
      let chainSaving: Promise<void> | undefined;
      const saveChain = () => (chainSaving ??= historyChain ? saveHistoryChain(dir, historyChain) : Promise.resolve());
      if (!streamed) {
        for (const line of result.lines ?? []) {
          await writer.write(line);
          await writer.write('\n');
        }
        await writer.finish();
      }
      const { relink, relinked } = relinkerOf(result);
      const anchor = await droppedLastLine(result, path, relink);
      // A trimmed log trims to itself (its last line put back): nothing to gain, nothing changed.
      if (result.output.bytes + (anchor ? anchor.length + 1 : 0) >= result.input.bytes) {
        await writer.abort();
        await dropBackup(dir, record);
        done = true;
        await saveChain();
        return { status: 'unchanged', result, warnings };
      }
      const temp = await open(writer.tempPath, 'r+');
      try {
        let size = (await temp.stat()).size;
        if (anchor) {
          await temp.write(Buffer.concat([anchor, Buffer.from('\n')]), 0, anchor.length + 1, size);
          size += anchor.length + 1;
        }
        await temp.sync();
        record.result = { bytes: size, fingerprint: await fingerprint(temp, size) };
      } finally {
        await temp.close();
      }
      // The log as it was must be held by whoever asked to wait (the hook's snapshot) before the
      // record says it is replaced: a kill while waiting leaves no record of a replace.
      await request.replaceAfter;
      // The backup and its record (saved first) before the rename: a kill just after it leaves a
      // log cmv still knows how to restore.
      await placeBackup(live, backup);
      // The log's end as it was read: a log rewritten during the trim (not appended to) is left alone.
      const carried = await replaceLive(live, writer.tempPath, record.file!.bytes, { relink, expectTail: backup.tail, deadline: request.deadline, whileSettling: saveChain });
      done = true;
      record.carried = { before: carried.carried, late: carried.late, lines: carried.lines };
      if (Object.keys(relinked).length) record.relinked = relinked;
      await saveRecord(dir, record).catch(() => {});
      await saveChain();
      return { status: 'trimmed', result, backup: backup.path, record, carried, warnings };
    } finally {
      if (!done) {
        await writer?.abort();
        await dropBackup(dir, record);
      }
    }
  } finally {
    await live?.handle.close().catch(() => {});
    await lock.release();
  }
}
