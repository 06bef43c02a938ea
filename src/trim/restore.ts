// Restoring a log changed in place: the first backup of the current run of changes (backups.ts)
// or a later one, with every line appended since, through every later trim, after it. Never
// toggles: once restored, the log carries no change to undo, and restoring again changes nothing.

import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { open, unlink, type FileHandle } from 'node:fs/promises';
import { AtomicWriter, removeStaleTemps } from '../session/write.js';
import { asCmvError, completeLength, fingerprint, openLiveLog, readAt, realLogPath, replaceLive, TAIL_BYTES, type LiveLog, type Replaced } from '../session/live-replace.js';
import { withTopLevelValues } from '../session/skim.js';
import { CmvError } from '../errors.js';
import { backupPathOf, busy, checkComplete, lockLog, newId, planOf, readBackups, saveRecord, type BackupRecord } from './backups.js';

export type RestoreOutcome =
  | { status: 'restored'; path: string; restored: BackupRecord; backupPath: string; bytes: number; carried: Replaced; record: BackupRecord }
  /** Nothing to undo: no in-place change in the log now (never trimmed, or restored already). */
  | { status: 'unchanged'; path: string; reason: string; lastRestore?: BackupRecord };

/** Undoes a relink made while carrying lines, so a restored log has them as they were written. */
function unrelinker(maps: (Record<string, string> | undefined)[]): ((line: Buffer) => Buffer) | undefined {
  const parents = new Map<string, string>();
  for (const map of maps) for (const [uuid, parent] of Object.entries(map ?? {})) parents.set(uuid, parent);
  if (parents.size === 0) return undefined;
  return (line) => {
    // Parsed only when it names one of the relinked uuids (a handful at most).
    if (![...parents.keys()].some((uuid) => line.includes(uuid))) return line;
    let uuid: unknown;
    try {
      uuid = (JSON.parse(line.toString('utf8')) as { uuid?: unknown }).uuid;
    } catch {
      return line;
    }
    const parent = typeof uuid === 'string' ? parents.get(uuid) : undefined;
    if (parent === undefined) return line;
    return withTopLevelValues(line, new Map([['parentUuid', JSON.stringify(parent)]])) ?? line;
  };
}

async function copyRange(handle: FileHandle, start: number, end: number, write: (b: Buffer) => Promise<void>, hash?: ReturnType<typeof createHash>): Promise<void> {
  const chunk = Buffer.allocUnsafe(4 * 1024 * 1024);
  for (let at = start; at < end;) {
    const { bytesRead } = await handle.read(chunk, 0, Math.min(chunk.length, end - at), at);
    if (bytesRead === 0) throw new CmvError('BAD_INPUT', 'a backup ended early while it was read', { hint: 'its file was changed; restore another one (`cmv restore --list`)' });
    const piece = chunk.subarray(0, bytesRead);
    hash?.update(piece);
    await write(piece);
    at += bytesRead;
  }
}

/** Writes lines of `bytes` through `relink` (when given) as they go. */
function lineMapper(write: (b: Buffer) => Promise<void>, relink: ((line: Buffer) => Buffer) | undefined) {
  if (!relink) return { write, end: async () => {} };
  let pending = Buffer.alloc(0);
  return {
    write: async (piece: Buffer) => {
      let data = pending.length ? Buffer.concat([pending, piece]) : piece;
      for (let nl = data.indexOf(0x0a); nl >= 0; nl = data.indexOf(0x0a)) {
        await write(relink(data.subarray(0, nl)));
        await write(Buffer.from('\n'));
        data = data.subarray(nl + 1);
      }
      pending = Buffer.from(data);
    },
    end: async () => {
      if (pending.length) await write(pending);
    },
  };
}

export interface RestoreRequest {
  /** A backup id (or a unique start of one); default: the first backup of the current run. */
  from?: string;
  lockWaitMs?: number;
  now?: () => Date;
  deadline?: number;
}

/**
 * Puts back a backup of the current run of in-place changes, with every line appended to the log
 * since (through later trims) after it. Never toggles: once restored, the log carries no change to
 * undo, and restoring again changes nothing.
 */
export async function restoreBackup(sessionPath: string, live: LiveLog, request: RestoreRequest = {}): Promise<RestoreOutcome> {
  const { dir, records, legacy } = await readBackups(sessionPath);
  if (records.length === 0 && legacy.length === 0) {
    throw new CmvError('NOT_FOUND', `no backup of ${sessionPath}`, { hint: 'backups are made by `cmv trim --in-place` and the hooks' });
  }
  const size = (await live.handle.stat()).size;
  const complete = await completeLength(live.handle, size);
  const plan = await planOf(records, live.handle, complete);
  // The log's end as this restore reads it: checked again just before the rename.
  const expectTail = await readAt(live.handle, Math.max(0, complete - TAIL_BYTES), complete);
  let target: BackupRecord | undefined;
  if (request.from !== undefined) {
    const matches = records.filter((r) => r.kind === 'trim' && r.id.startsWith(request.from!));
    const legacyMatch = legacy.find((l) => l.id.startsWith(request.from!));
    if (matches.length === 0) {
      throw new CmvError('NOT_FOUND', `no backup "${request.from}" of ${sessionPath}`, {
        hint: legacyMatch ? `${legacyMatch.path} was made by an older cmv; copy it by hand if you need it` : '`cmv restore <session> --list` shows the backups',
      });
    }
    if (matches.length > 1) throw new CmvError('AMBIGUOUS', `"${request.from}" names ${matches.length} backups`, { hint: 'give more of the id (`cmv restore <session> --list`)' });
    target = matches[0];
    if (!plan.run.includes(target)) {
      throw new CmvError('CONFLICT', `backup ${target.id} is not in the run of changes the log now carries (the log was restored or changed since)`, {
        hint: plan.run.length ? `restore ${plan.run.at(-1)!.id}, the first backup of the current run` : 'the log holds no in-place change to undo',
      });
    }
  } else {
    target = plan.run.at(-1);
  }
  if (!target) {
    const reason = plan.lastRestore
      ? `${sessionPath} is as it was before its in-place trims (restored from ${plan.lastRestore.restored} at ${plan.lastRestore.at}); nothing to restore`
      : `${sessionPath} holds no in-place change by cmv to undo${legacy.length ? ` (${legacy.length} backups made by an older cmv: \`cmv restore <session> --list\`)` : ''}`;
    return { status: 'unchanged', path: sessionPath, reason, lastRestore: plan.lastRestore };
  }
  const backupPath = backupPathOf(dir, target.id);
  const problem = await checkComplete(backupPath, target);
  if (problem) {
    throw new CmvError('BAD_INPUT', `backup ${target.id} is not a complete log (${problem}); nothing restored`, { hint: '`cmv restore <session> --list` shows the other backups' });
  }
  // Newest first in the run: the changes after the target, oldest first.
  const later = plan.run.slice(0, plan.run.indexOf(target)).reverse();
  for (const r of later) {
    const p = await checkComplete(backupPathOf(dir, r.id), r);
    if (p) throw new CmvError('BAD_INPUT', `backup ${r.id}, which holds lines written after ${target.id}, is not complete (${p}); nothing restored`, { hint: 'restore a later backup' });
  }
  const head = plan.run[0];
  const now = request.now?.() ?? new Date();
  const writer = await AtomicWriter.open(sessionPath, live.stats.mode & 0o7777);
  let replaced: Replaced | undefined;
  try {
    const write = (b: Buffer) => writer.write(b);
    const hash = createHash('sha256');
    const whole = await open(backupPath, 'r');
    try {
      await copyRange(whole, 0, target.file!.bytes, write, hash);
    } finally {
      await whole.close();
    }
    if (hash.digest('hex') !== target.file!.sha256) {
      throw new CmvError('BAD_INPUT', `backup ${target.id} is damaged (its bytes are not those copied); nothing restored`, { hint: '`cmv restore <session> --list` shows the other backups' });
    }
    // What each later backup holds past the result of the change before it: lines appended between.
    let previous = target;
    for (const r of later) {
      const mapped = lineMapper(write, unrelinker([previous.relinked]));
      const part = await open(backupPathOf(dir, r.id), 'r');
      try {
        await copyRange(part, r.after!.bytes, r.file!.bytes, mapped.write);
      } finally {
        await part.close();
      }
      await mapped.end();
      previous = r;
    }
    // And what the log holds past the last change's result, up to its last complete line.
    const tail = lineMapper(write, unrelinker([head.relinked]));
    await copyRange(live.handle, plan.state.bytes, complete, tail.write);
    await tail.end();
    await writer.finish();
    const resultHandle = await open(writer.tempPath, 'r');
    let result: BackupRecord['result'];
    try {
      const bytes = (await resultHandle.stat()).size;
      result = { bytes, fingerprint: await fingerprint(resultHandle, bytes) };
    } finally {
      await resultHandle.close();
    }
    const record: BackupRecord = {
      format: 1,
      id: newId(now),
      kind: 'restore',
      source: sessionPath,
      at: now.toISOString(),
      by: 'restore',
      mode: live.stats.mode & 0o7777,
      mtimeMs: live.stats.mtimeMs,
      after: { id: head.id, bytes: plan.state.bytes },
      result,
      restored: target.id,
    };
    await saveRecord(dir, record);
    try {
      replaced = await replaceLive(live, writer.tempPath, complete, { expectTail, relink: unrelinker([head.relinked]), deadline: request.deadline });
    } catch (error) {
      await unlink(join(dir, `${record.id}.json`)).catch(() => {});
      throw error;
    }
    record.carried = { before: replaced.carried, late: replaced.late, lines: replaced.lines };
    await saveRecord(dir, record).catch(() => {});
    return { status: 'restored', path: sessionPath, restored: target, backupPath, bytes: replaced.bytes, carried: replaced, record };
  } finally {
    if (!replaced) await writer.abort();
  }
}

/** `cmv restore` and `cmv hook restore`: under the log's change lock. */
export async function restoreLog(logPath: string, request: RestoreRequest = {}): Promise<RestoreOutcome> {
  const sessionPath = await realLogPath(logPath);
  try {
    return await restoreResolved(sessionPath, request);
  } catch (error) {
    throw asCmvError(error, sessionPath);
  }
}

async function restoreResolved(sessionPath: string, request: RestoreRequest): Promise<RestoreOutcome> {
  const lock = await lockLog(sessionPath, request.lockWaitMs ?? 10_000);
  if (!lock) throw busy(sessionPath);
  let live: LiveLog | undefined;
  try {
    live = await openLiveLog(sessionPath);
    await removeStaleTemps(dirname(sessionPath));
    return await restoreBackup(sessionPath, live, request);
  } finally {
    await live?.handle.close().catch(() => {});
    await lock.release();
  }
}
