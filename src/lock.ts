// A writer lock (the snapshot store's, the trim backups'): one file created exclusively, holding its owner's pid, host and a
// token, kept fresh by a heartbeat. A lock whose owner died (same host, pid gone) or whose
// heartbeat stopped is broken. Git's own compare-and-swap ref updates back it up: even two
// writers at once could not corrupt the store, only one of them would fail.

import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { readFile, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { CmvError } from './errors.js';

const HEARTBEAT_MS = 2_000;
/** A lock not refreshed for this long belongs to a frozen or remote process. */
const STALE_MS = 30_000;
const WAIT_MS = 60_000;

interface LockOwner {
  pid: number;
  host: string;
  token: string;
  since: string;
  /** The owner leads its process group: its git children are in it and outlive a kill of node alone. */
  group?: boolean;
}

/** Whether this process leads a process group (a CLI run from a shell does): kill(-pid, 0) reaches it. */
function leadsGroup(): boolean {
  if (process.platform === 'win32') return false;
  try {
    process.kill(-process.pid, 0);
    return true;
  } catch {
    return false;
  }
}

export interface HeldLock {
  path: string;
  /** When this process took the lock: git lock files older than this were left by a dead writer. */
  acquiredMs: number;
  release(): Promise<void>;
}

/** Whether a process (or, with a negative pid, a process group) of this host is alive. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readOwner(path: string): Promise<{ owner?: LockOwner; text: string; mtimeMs: number } | undefined> {
  try {
    const [text, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
    let owner: LockOwner | undefined;
    try {
      owner = JSON.parse(text) as LockOwner;
    } catch {
      owner = undefined; // a lock torn by a kill between create and write
    }
    return { owner, text, mtimeMs: info.mtimeMs };
  } catch {
    return undefined;
  }
}

function isStale(found: { owner?: LockOwner; mtimeMs: number }, now: number): boolean {
  if (now - found.mtimeMs > STALE_MS) return true;
  const owner = found.owner;
  if (!owner) return now - found.mtimeMs > HEARTBEAT_MS * 2;
  if (owner.host !== hostname() || alive(owner.pid)) return false;
  // The owner died, but a git child it started may still be writing: not stale until its group is gone.
  return !(owner.group && alive(-owner.pid));
}

/** Removes a stale lock, unless someone replaced it meanwhile. */
async function breakLock(path: string, seen: string): Promise<void> {
  const aside = `${path}.stale-${randomBytes(4).toString('hex')}`;
  try {
    await rename(path, aside);
  } catch {
    return; // someone else broke it first
  }
  const moved = await readFile(aside, 'utf8').catch(() => '');
  if (moved !== seen) {
    // A live owner's fresh lock: put it back (fails harmlessly if a third process locked meanwhile).
    await rename(aside, path).catch(() => {});
    return;
  }
  await unlink(aside).catch(() => {});
}

export async function acquireLock(path: string, waitMs = WAIT_MS): Promise<HeldLock> {
  const owner: LockOwner = { pid: process.pid, host: hostname(), token: randomBytes(8).toString('hex'), since: new Date().toISOString(), group: leadsGroup() };
  const text = JSON.stringify(owner);
  const started = Date.now();
  let delay = 20;
  for (;;) {
    try {
      await writeFile(path, text, { flag: 'wx', mode: 0o600 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new CmvError('IO', `cannot create the store lock ${path}: ${(error as Error).message}`, { cause: error });
    }
    const found = await readOwner(path);
    if (found && isStale(found, Date.now())) {
      await breakLock(path, found.text);
      continue;
    }
    if (Date.now() - started > waitMs) {
      const who = found?.owner ? `cmv process ${found.owner.pid} on ${found.owner.host}` : 'another cmv process';
      throw new CmvError('CONFLICT', `the snapshot store is busy: ${who} holds ${path}`, {
        hint: 'wait for it to finish and try again; a lock whose process died is broken automatically',
      });
    }
    await new Promise((r) => setTimeout(r, delay + Math.random() * delay));
    delay = Math.min(delay * 2, 250);
  }
  const acquiredMs = Date.now();
  const heartbeat = setInterval(() => {
    const now = new Date();
    utimes(path, now, now).catch(() => {});
  }, HEARTBEAT_MS);
  heartbeat.unref();
  let released = false;
  return {
    path,
    acquiredMs,
    async release() {
      if (released) return;
      released = true;
      clearInterval(heartbeat);
      const current = await readFile(path, 'utf8').catch(() => '');
      if (current === text) await unlink(path).catch(() => {});
    },
  };
}

export async function withLock<T>(path: string, fn: (lock: HeldLock) => Promise<T>): Promise<T> {
  const lock = await acquireLock(path);
  try {
    return await fn(lock);
  } finally {
    await lock.release();
  }
}
