// Backups of logs changed in place. One folder per session file; per change a record (<id>.json)
// and, for a trim, the log it started from (<id>.jsonl): the log's old file itself, hard-linked
// just before the trimmed log is renamed over it, or where no link can be made a copy written to
// a temp file, synced and renamed; either way a backup is complete or absent, its record written
// first. Each record names the state the log was
// in when the change began (the result of an earlier change, by size and fingerprint), so the
// changes of one run form a chain that restore.ts follows. A restore ends the run.

import { createHash, randomBytes } from 'node:crypto';
import { basename, join } from 'node:path';
import { constants } from 'node:fs';
import { link, mkdir, open, readdir, readFile, stat, unlink, writeFile, type FileHandle } from 'node:fs/promises';
import { ensureDataDir } from '../data-dir.js';
import { acquireLock, type HeldLock } from '../lock.js';
import { AtomicWriter, removeStaleTemps, writeFileAtomic } from '../session/write.js';
import { completeLength, fingerprint, readAt, realLogPath, TAIL_BYTES, type LiveLog } from '../session/live-replace.js';
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
  /**
   * A trim's backup of the log as it began (its complete lines: the backup's first `bytes`).
   * `linked`: the backup is the log's old file itself, hard-linked before it was replaced, so it
   * may hold more (what was appended before the replacement).
   */
  file?: { bytes: number; sha256: string; fingerprint: string; linked?: boolean };
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

/** A backup read and described (its record), to be placed just before the log is replaced (placeBackup). */
export interface PendingBackup {
  record: BackupRecord;
  path: string;
  dir: string;
  /** SHA-256 of the prefixes asked for (`digestAt`), by length. */
  prefixDigests: Map<number, string>;
  /** The last TAIL_BYTES of the bytes backed up, as read: the log must still end so when it is replaced. */
  tail: Buffer;
}

/**
 * Reads the log's complete lines once, through the handle opened for the change, and describes
 * them in a backup record (size, SHA-256, fingerprint, the state the log was in); nothing is
 * written yet (placeBackup does, just before the log is replaced). `digestAt`: offsets whose
 * prefix is wanted hashed too (SHA-256, `prefixDigests`), from the same pass over the bytes (a
 * trim that copies the history as it is needs them).
 */
export async function readForBackup(log: LiveLog, by: string, now = new Date(), digestAt: number[] = []): Promise<PendingBackup> {
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
  const { sha256, prefixDigests } = await digestOf(log, bytes, digestAt);
  const record: BackupRecord = {
    format: 1,
    id,
    kind: 'trim',
    source: log.path,
    at: now.toISOString(),
    by,
    file: { bytes, sha256, fingerprint: await fingerprint(log.handle, bytes) },
    mode: log.stats.mode & 0o7777,
    mtimeMs: log.stats.mtimeMs,
    after: state.record ? { id: state.record.id, bytes: state.bytes } : undefined,
  };
  return { record, path: backupPathOf(dir, id), dir, prefixDigests, tail: await readAt(log.handle, Math.max(0, bytes - TAIL_BYTES), bytes) };
}

/**
 * SHA-256 of the log's first `bytes` (and of the prefixes `digestAt`), read through its handle;
 * with `write`, each piece is also written (a copy). The next piece is read while one is hashed
 * and written (one after another took 1.5-2x as long on a 50 MB log).
 */
async function digestOf(log: LiveLog, bytes: number, digestAt: number[], write?: (piece: Buffer) => Promise<void>): Promise<{ sha256: string; prefixDigests: Map<number, string> }> {
  const hash = createHash('sha256');
  const prefixDigests = new Map<number, string>();
  const cuts = [...new Set(digestAt)].filter((n) => n > 0 && n <= bytes).sort((a, b) => a - b);
  const chunks = [Buffer.allocUnsafe(Math.min(bytes, BACKUP_CHUNK_BYTES)), Buffer.allocUnsafe(Math.min(bytes, BACKUP_CHUNK_BYTES))];
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
    if (write) await write(piece);
    at += bytesRead;
  }
  return { sha256: hash.digest('hex'), prefixDigests };
}

/** Why a hard link cannot be made here (another file system, one without links, no right to link the log): copied instead. */
const CANNOT_LINK = new Set(['EXDEV', 'EPERM', 'EACCES', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK', 'ENOSYS']);

/**
 * Puts a backup read by readForBackup in place, its record first (a backup file always has one):
 * a hard link to the log's file when it can be made (nothing copied: the log's replacement, a new
 * file renamed over it, leaves the old file to the backup alone), else a copy of the bytes read,
 * synced and renamed. Either way the backup's first `record.file.bytes` are those the record
 * describes; a linked backup also holds what was appended to the log before its replacement
 * (lines the replacement carries too), so it may be longer (`file.linked`).
 */
export async function placeBackup(log: LiveLog, backup: PendingBackup): Promise<void> {
  const { record, path, dir } = backup;
  const file = record.file!;
  record.file = { ...file, linked: true };
  await saveRecord(dir, record);
  let linked = false;
  try {
    await link(log.path, path);
    // The log's path could name another file than the one read (it never does while the change
    // lock is held and Claude Code appends): then that link goes, and the bytes read are copied.
    const placed = await stat(path);
    linked = placed.ino === log.stats.ino && placed.dev === log.stats.dev;
    if (!linked) await unlink(path);
  } catch (error) {
    if (!CANNOT_LINK.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
  }
  if (!linked) {
    record.file = file;
    await saveRecord(dir, record);
    await copyBackup(log, backup);
  }
  await writeFile(join(dir, 'source.txt'), `${log.path}\n`, { mode: 0o600 });
}

/** The backup as a copy of the bytes read (temp file, sync, rename), checked against the record's SHA-256 as it is copied. */
async function copyBackup(log: LiveLog, backup: PendingBackup): Promise<void> {
  const writer = await AtomicWriter.open(backup.path);
  try {
    const { sha256 } = await digestOf(log, backup.record.file!.bytes, [], (piece) => writer.write(piece));
    if (sha256 !== backup.record.file!.sha256) {
      throw new CmvError('CONFLICT', `${log.path} was rewritten while it was trimmed (not appended to); nothing changed`, { hint: 'run the command again' });
    }
    await writer.finish();
    await writer.commit();
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
  const bytes = record.file.bytes;
  // A linked backup is the log's old file: it also holds what was appended before the log was replaced.
  if (record.file.linked ? info.size < bytes : info.size !== bytes) return `it holds ${info.size} bytes of ${bytes}`;
  const handle = await open(path, 'r');
  try {
    if (bytes === 0 || (await readAt(handle, bytes - 1, bytes))[0] !== 0x0a) return 'its last line is cut short';
    if ((await fingerprint(handle, bytes)) !== record.file.fingerprint) return 'its bytes are not those copied';
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
