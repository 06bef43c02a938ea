// Backups of logs changed in place. One folder per session file; per change a record (<id>.json)
// and, for a trim, the copy of the log it started from (<id>.jsonl), written to a temp file,
// synced and renamed, so a backup is complete or absent. Each record names the state the log was
// in when the change began (the result of an earlier change, by size and fingerprint), so the
// changes of one run form a chain that restore.ts follows. A restore ends the run.

import { createHash, randomBytes } from 'node:crypto';
import { basename, join } from 'node:path';
import { constants } from 'node:fs';
import { mkdir, open, readdir, readFile, stat, unlink, writeFile, type FileHandle } from 'node:fs/promises';
import { ensureDataDir } from '../data-dir.js';
import { acquireLock, type HeldLock } from '../lock.js';
import { AtomicWriter, removeStaleTemps, writeFileAtomic } from '../session/write.js';
import { completeLength, fingerprint, readAt, realLogPath, type LiveLog } from '../session/live-replace.js';
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

export function newId(now: Date): string {
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

/** Bytes read (and written) at a time when a log is backed up. */
const BACKUP_CHUNK_BYTES = 4 * 1024 * 1024;

/**
 * Copies the log's complete lines to a new backup (temp file, sync, rename) with its record. The
 * log is read through the handle opened for the change, so the copy is of the file then replaced.
 * `digestAt`: offsets whose prefix of the copy is wanted hashed too (SHA-256, `prefixDigests`),
 * from the same pass over the bytes (a trim that copies the history as it is needs them).
 */
export async function takeBackup(
  log: LiveLog,
  by: string,
  now = new Date(),
  digestAt: number[] = [],
): Promise<{ record: BackupRecord; path: string; dir: string; prefixDigests: Map<number, string> }> {
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
  const prefixDigests = new Map<number, string>();
  const cuts = [...new Set(digestAt)].filter((n) => n > 0 && n <= bytes).sort((a, b) => a - b);
  try {
    // Two chunks: the next is read while this one is hashed and written (read, hash and write one
    // after another took 1.5-2x as long on a 50 MB log).
    const chunks = [Buffer.allocUnsafe(BACKUP_CHUNK_BYTES), Buffer.allocUnsafe(BACKUP_CHUNK_BYTES)];
    const readAtOffset = (at: number, chunk: Buffer) => {
      const read = log.handle.read(chunk, 0, Math.min(chunk.length, bytes - at), at);
      read.catch(() => undefined); // awaited at its turn; a write failing first must not leave it unhandled
      return read;
    };
    let reading = readAtOffset(0, chunks[0]);
    for (let at = 0, turn = 0; at < bytes; turn ^= 1) {
      const { bytesRead } = await reading;
      if (bytesRead === 0) throw new CmvError('CONFLICT', `${log.path} shrank while it was backed up; nothing changed`, { hint: 'run the command again' });
      // The other chunk's write resolved a turn ago (the writer has a piece written or copied once
      // write() resolves): it takes the next read.
      if (at + bytesRead < bytes) reading = readAtOffset(at + bytesRead, chunks[turn ^ 1]);
      const piece = chunks[turn].subarray(0, bytesRead);
      let hashed = 0;
      while (cuts.length > 0 && cuts[0] <= at + bytesRead) {
        const cut = cuts.shift()! - at;
        hash.update(piece.subarray(hashed, cut));
        hashed = cut;
        prefixDigests.set(at + cut, hash.copy().digest('hex'));
      }
      hash.update(piece.subarray(hashed));
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
    return { record, path, dir, prefixDigests };
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

/** Why a backup is not the complete copy its record describes (size, cut last line, fingerprint); undefined when it is. */
export async function checkComplete(path: string, record: BackupRecord): Promise<string | undefined> {
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

export async function planOf(records: BackupRecord[], log: FileHandle, size: number): Promise<RestorePlan> {
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
  for (const l of legacy)
    listed.push({ id: l.id, kind: 'legacy', bytes: l.bytes, path: l.path, inRun: false, isDefault: false, problem: 'made by an older cmv (no record): copy it by hand if you need it' });
  return listed.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

export function busy(sessionPath: string): CmvError {
  return new CmvError('CONFLICT', `another cmv is changing ${sessionPath} (a hook's trim, or a trim or restore in place)`, {
    hint: 'wait a moment and run the command again',
    details: { reason: 'busy' },
  });
}
