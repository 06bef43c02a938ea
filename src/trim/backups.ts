// Backups of logs changed in place, and restoring them. One folder per session file; per change a
// record (<id>.json) and, for a trim, the copy of the log it started from (<id>.jsonl), written to
// a temp file, synced and renamed, so a backup is complete or absent. Each record names the state
// the log was in when the change began (the result of an earlier change, by size and fingerprint),
// so the changes of one run form a chain: a restore puts back the first backup of the run and
// carries every line appended since, through every later trim. A restore ends the run.

import { createHash, randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { constants } from 'node:fs';
import { mkdir, open, readdir, readFile, stat, unlink, writeFile, type FileHandle } from 'node:fs/promises';
import { ensureDataDir } from '../store/location.js';
import { acquireLock, type HeldLock } from '../store/lock.js';
import { AtomicWriter, removeStaleTemps, writeFileAtomic } from '../session/write.js';
import { asCmvError, completeLength, fingerprint, openLiveLog, readAt, realLogPath, replaceLive, TAIL_BYTES, type LiveLog, type Replaced } from '../session/live-replace.js';
import { withTopLevelValues } from '../session/skim.js';
import { CmvError } from '../errors.js';

export type ChangeKind = 'trim' | 'restore';

export interface BackupRecord {
  format: 1;
  /** Sortable by time: `<UTC stamp>-<pid>-<random>`. */
  id: string;
  kind: ChangeKind;
  source: string;
  at: string;
  /** What made the change: `trim --in-place`, a hook (`pre-compact`, `size-guard`), `restore`. */
  by: string;
  /** A trim's copy of the log as it began (complete lines only). */
  file?: { bytes: number; sha256: string; fingerprint: string };
  /** The log's mode and mtime when the change began. */
  mode: number;
  mtimeMs: number;
  /** The change began on the log as that record's change left it (its first `bytes`). */
  after?: { id: string; bytes: number };
  /** The log as this change left it (its first `bytes`, before lines carried): saved before the rename. */
  result?: { bytes: number; fingerprint: string };
  /** A restore: the backup it put back. */
  restored?: string;
  /** Lines carried across the change whose parent was relinked (uuid -> the parent they had). */
  relinked?: Record<string, string>;
  carried?: { before: number; late: number; lines: number };
}

/** A copy an earlier cmv made (no record): listed, restored only when named. */
export interface LegacyBackup {
  id: string;
  path: string;
  bytes: number;
}

export interface Backups {
  dir: string;
  records: BackupRecord[];
  legacy: LegacyBackup[];
}

export async function backupFolder(sessionPath: string): Promise<string> {
  const key = createHash('sha1').update(sessionPath).digest('hex').slice(0, 12);
  return join(await ensureDataDir('backups'), `${basename(sessionPath, '.jsonl')}-${key}`);
}

export function backupPathOf(dir: string, id: string): string {
  return join(dir, `${id}.jsonl`);
}

function newId(now: Date): string {
  return `${now.toISOString().replace(/[-:.]/g, '').replace('T', '-')}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

/** One in-place change of a log at a time (hooks, `trim --in-place`, `restore`). */
export async function lockLog(sessionPath: string, waitMs: number): Promise<HeldLock | undefined> {
  const dir = await backupFolder(sessionPath);
  await ensureFolder(dir);
  try {
    return await acquireLock(join(dir, 'change.lock'), waitMs);
  } catch (error) {
    if (error instanceof CmvError && error.code === 'CONFLICT') return undefined;
    throw error;
  }
}

async function ensureFolder(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
}

export async function readBackups(sessionPath: string): Promise<Backups> {
  const dir = await backupFolder(sessionPath);
  let names: string[] = [];
  try {
    names = await readdir(dir);
  } catch {
    return { dir, records: [], legacy: [] };
  }
  const records: BackupRecord[] = [];
  const legacy: LegacyBackup[] = [];
  const recorded = new Set<string>();
  for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
    try {
      const record = JSON.parse(await readFile(join(dir, name), 'utf8')) as BackupRecord;
      if (record.format !== 1 || typeof record.id !== 'string') continue;
      records.push(record);
      recorded.add(`${record.id}.jsonl`);
    } catch {
      // not ours, or unreadable: not a record
    }
  }
  for (const name of names.filter((n) => n.endsWith('.jsonl') && !recorded.has(n)).sort()) {
    const info = await stat(join(dir, name)).catch(() => undefined);
    if (info?.isFile()) legacy.push({ id: name.replace(/\.jsonl$/, ''), path: join(dir, name), bytes: info.size });
  }
  return { dir, records, legacy };
}

export async function saveRecord(dir: string, record: BackupRecord): Promise<void> {
  await writeFileAtomic(join(dir, `${record.id}.json`), [`${JSON.stringify(record, null, 1)}\n`], 0o600);
}

/** Removes a backup whose change was not made (the trim failed or gained nothing). */
export async function dropBackup(dir: string, record: BackupRecord): Promise<void> {
  await unlink(backupPathOf(dir, record.id)).catch(() => {});
  await unlink(join(dir, `${record.id}.json`)).catch(() => {});
}

export interface LogState {
  /** The change whose result the log begins with; undefined: no change of cmv's is in it. */
  record?: BackupRecord;
  /** Bytes of the log that change accounts for (0 without one). */
  bytes: number;
}

/** Which of cmv's changes the log (its first `size` bytes) is the result of, plus appended lines. */
export async function stateOf(records: BackupRecord[], log: FileHandle, size: number): Promise<LogState> {
  const byId = new Map(records.map((r) => [r.id, r]));
  for (const record of [...records].reverse()) {
    if (record.result && size >= record.result.bytes && (await fingerprint(log, record.result.bytes)) === record.result.fingerprint) {
      return { record, bytes: record.result.bytes };
    }
    if (record.kind === 'trim' && record.file && size >= record.file.bytes && (await fingerprint(log, record.file.bytes)) === record.file.fingerprint) {
      // Its backup was taken and the trim never replaced the log (killed, failed or unchanged).
      const before = record.after && byId.get(record.after.id);
      return before ? { record: before, bytes: record.after!.bytes } : { bytes: 0 };
    }
  }
  return { bytes: 0 };
}

/**
 * Copies the log's complete lines to a new backup (temp file, sync, rename) with its record. The
 * log is read through the handle opened for the change, so the copy is of the file then replaced.
 */
export async function takeBackup(log: LiveLog, by: string, now = new Date()): Promise<{ record: BackupRecord; path: string; dir: string }> {
  const size = (await log.handle.stat()).size;
  const bytes = await completeLength(log.handle, size);
  if (bytes === 0) {
    throw new CmvError('BAD_INPUT', size === 0 ? `${log.path} is empty: nothing to change` : `${log.path} holds no complete line: not a session log to change`, {
      hint: 'pass a .jsonl log from ~/.claude/projects',
    });
  }
  const { dir, records } = await readBackups(log.path);
  await ensureFolder(dir);
  await removeStaleTemps(dir);
  const state = await stateOf(records, log.handle, bytes);
  const id = newId(now);
  const path = backupPathOf(dir, id);
  const writer = await AtomicWriter.open(path);
  const hash = createHash('sha256');
  try {
    const chunk = Buffer.allocUnsafe(4 * 1024 * 1024);
    for (let at = 0; at < bytes; ) {
      const { bytesRead } = await log.handle.read(chunk, 0, Math.min(chunk.length, bytes - at), at);
      if (bytesRead === 0) throw new CmvError('CONFLICT', `${log.path} shrank while it was backed up; nothing changed`, { hint: 'run the command again' });
      // The writer has the piece written or copied once write() resolves: the chunk is reused.
      const piece = chunk.subarray(0, bytesRead);
      hash.update(piece);
      await writer.write(piece);
      at += bytesRead;
    }
    await writer.finish();
    const record: BackupRecord = {
      format: 1,
      id,
      kind: 'trim',
      source: log.path,
      at: now.toISOString(),
      by,
      file: { bytes, sha256: hash.digest('hex'), fingerprint: await fingerprint(log.handle, bytes) },
      mode: log.stats.mode & 0o7777,
      mtimeMs: log.stats.mtimeMs,
      after: state.record ? { id: state.record.id, bytes: state.bytes } : undefined,
    };
    // The record first: a backup file in place always has one (a record alone is ignored).
    await saveRecord(dir, record);
    await writer.commit();
    await writeFile(join(dir, 'source.txt'), `${log.path}\n`, { mode: 0o600 });
    return { record, path, dir };
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

/** The sha256 and size of a whole file, and whether it ends with a complete line. */
async function checkComplete(path: string, record: BackupRecord): Promise<string | undefined> {
  const info = await stat(path).catch(() => undefined);
  if (!info) return 'its file is missing';
  if (!record.file) return 'it holds no copy';
  if (info.size !== record.file.bytes) return `it holds ${info.size} bytes of ${record.file.bytes}`;
  const handle = await open(path, 'r');
  try {
    if (info.size === 0 || (await readAt(handle, info.size - 1, info.size))[0] !== 0x0a) return 'its last line is cut short';
    if ((await fingerprint(handle, info.size)) !== record.file.fingerprint) return 'its bytes are not those copied';
  } finally {
    await handle.close();
  }
  return undefined;
}

export interface ListedBackup {
  id: string;
  kind: ChangeKind | 'legacy';
  at?: string;
  by?: string;
  bytes?: number;
  path?: string;
  /** In the run of changes the log now carries (a restore can go back to it). */
  inRun: boolean;
  /** The one `cmv restore` puts back without --from. */
  isDefault: boolean;
  /** Why it cannot be restored, if it cannot. */
  problem?: string;
}

export interface RestorePlan {
  /** The chain of changes of the current run, newest first (its last is the default to restore). */
  run: BackupRecord[];
  state: LogState;
  lastRestore?: BackupRecord;
}

async function planOf(records: BackupRecord[], log: FileHandle, size: number): Promise<RestorePlan> {
  const state = await stateOf(records, log, size);
  const byId = new Map(records.map((r) => [r.id, r]));
  const run: BackupRecord[] = [];
  let lastRestore: BackupRecord | undefined;
  for (let r = state.record; r; r = r.after ? byId.get(r.after.id) : undefined) {
    if (r.kind === 'restore') {
      lastRestore = r;
      break;
    }
    run.push(r);
  }
  return { run, state, lastRestore };
}

export async function listBackups(logPath: string): Promise<ListedBackup[]> {
  const sessionPath = await realLogPath(logPath).catch(() => logPath);
  const { dir, records, legacy } = await readBackups(sessionPath);
  let plan: RestorePlan = { run: [], state: { bytes: 0 } };
  let handle: FileHandle | undefined;
  try {
    handle = await open(sessionPath, constants.O_RDONLY | constants.O_NONBLOCK);
    const info = await handle.stat();
    if (info.isFile()) plan = await planOf(records, handle, await completeLength(handle, info.size));
  } catch {
    // no log (any more): the backups are still listed
  } finally {
    await handle?.close();
  }
  const inRun = new Set(plan.run.map((r) => r.id));
  const defaultId = plan.run.at(-1)?.id;
  const listed: ListedBackup[] = [];
  for (const r of records) {
    if (r.kind !== 'trim') continue;
    const path = backupPathOf(dir, r.id);
    const problem = (await checkComplete(path, r)) ?? (inRun.has(r.id) ? undefined : 'not in the run of changes the log now carries');
    listed.push({ id: r.id, kind: r.kind, at: r.at, by: r.by, bytes: r.file?.bytes, path, inRun: inRun.has(r.id), isDefault: r.id === defaultId, problem });
  }
  for (const l of legacy) listed.push({ id: l.id, kind: 'legacy', bytes: l.bytes, path: l.path, inRun: false, isDefault: false, problem: 'made by an older cmv (no record): copy it by hand if you need it' });
  return listed.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

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
    const uuid = /"uuid":"([^"]+)"/.exec(line.toString('utf8'))?.[1];
    const parent = uuid === undefined ? undefined : parents.get(uuid);
    if (parent === undefined) return line;
    return withTopLevelValues(line, new Map([['parentUuid', JSON.stringify(parent)]])) ?? line;
  };
}

async function copyRange(handle: FileHandle, start: number, end: number, write: (b: Buffer) => Promise<void>, hash?: ReturnType<typeof createHash>): Promise<void> {
  const chunk = Buffer.allocUnsafe(4 * 1024 * 1024);
  for (let at = start; at < end; ) {
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
      : `${sessionPath} holds no in-place change by cmv to undo`;
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

export function busy(sessionPath: string): CmvError {
  return new CmvError('CONFLICT', `another cmv is changing ${sessionPath} (a hook's trim, or a trim or restore in place)`, {
    hint: 'wait a moment and run the command again',
    details: { reason: 'busy' },
  });
}
