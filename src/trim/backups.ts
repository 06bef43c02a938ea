// Backups of logs changed in place: one folder per session file, one copy per change, newest
// restored first. A backup is written before the log is touched, and never overwritten.

import { createHash } from 'node:crypto';
import { basename, join } from 'node:path';
import { readdir, readFile, writeFile, stat } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { ensureDataDir } from '../store/location.js';
import { backupFile, writeFileAtomic } from '../session/write.js';
import { CmvError } from '../errors.js';

async function backupFolder(sessionPath: string): Promise<string> {
  const key = createHash('sha1').update(sessionPath).digest('hex').slice(0, 12);
  const dir = join(await ensureDataDir('backups'), `${basename(sessionPath, '.jsonl')}-${key}`);
  return dir;
}

export async function backupSession(sessionPath: string): Promise<string> {
  const dir = await backupFolder(sessionPath);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const target = join(dir, `${stamp}.jsonl`);
  await backupFile(sessionPath, target);
  await writeFile(join(dir, 'source.txt'), `${sessionPath}\n`, { mode: 0o600 });
  return target;
}

export async function listBackups(sessionPath: string): Promise<string[]> {
  const dir = await backupFolder(sessionPath);
  try {
    return (await readdir(dir)).filter((f) => f.endsWith('.jsonl')).sort().reverse().map((f) => join(dir, f));
  } catch {
    return [];
  }
}

/** Puts the newest backup back in place; the current file is backed up first, so a restore can be undone. */
export async function restoreLatestBackup(sessionPath: string): Promise<{ restored: string; backupOfCurrent?: string }> {
  const backups = await listBackups(sessionPath);
  if (backups.length === 0) {
    throw new CmvError('NOT_FOUND', `no backup of ${sessionPath}`, { hint: 'backups are made by `cmv trim --in-place`' });
  }
  const latest = backups[0];
  let backupOfCurrent: string | undefined;
  try {
    await stat(sessionPath);
    const current = await readFile(sessionPath);
    const saved = await readFile(latest);
    if (!current.equals(saved)) backupOfCurrent = await backupSession(sessionPath);
  } catch {
    // the session file is gone: nothing to keep
  }
  await writeFileAtomic(sessionPath, createReadStream(latest) as AsyncIterable<Buffer>);
  return { restored: latest, backupOfCurrent };
}
