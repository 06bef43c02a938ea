// What cmv's hooks remember, in cmv's data folder (hooks/): a journal of the trims they made
// (trims.jsonl, one line each, read by `cmv hook status` and the dashboard), the size of each log
// after its last trim (state.json, for the size guard) and a log of their errors (hook.log).

import { join } from 'node:path';
import { appendFile, readFile, rename, stat } from 'node:fs/promises';
import { ensureDataDir, dataDir } from '../data-dir.js';
import { writeFileAtomic } from '../session/write.js';

export type TrimSource = 'pre-compact' | 'size-guard' | 'dashboard';

export interface TrimRecord {
  at: string;
  by: TrimSource;
  path: string;
  sessionId?: string;
  bytesBefore: number;
  bytesAfter: number;
  tokensBefore: number;
  tokensAfter: number;
  /** The copy of the log before an in-place trim. */
  backup?: string;
  /** Lines Claude Code appended during the trim, carried into the trimmed log. */
  carriedLines?: number;
  /** Where the trimmed log went when it was not the log itself (a new session). */
  output?: string;
  snapshot?: string;
}

/** A restore of a backup a trim made: that trim no longer counts as saving anything. */
export interface RestoreRecord {
  at: string;
  event: 'restore';
  path: string;
  /** The backup put back. */
  restored: string;
}

export interface GuardState {
  /** Bytes of the log right after its last trim (or restore): the size guard measures growth from here. */
  bytes: number;
  at: string;
}

const LOG_LIMIT = 1024 * 1024;

export function hooksDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(dataDir(env), 'hooks');
}

export async function appendTrimRecord(record: TrimRecord): Promise<void> {
  const dir = await ensureDataDir('hooks');
  await appendFile(join(dir, 'trims.jsonl'), `${JSON.stringify(record)}\n`, { mode: 0o600 });
}

/** Notes in the journal that a trim's backup was put back (`cmv hook restore`, `cmv restore`). */
export async function appendRestoreRecord(path: string, restored: string, now = new Date()): Promise<void> {
  const record: RestoreRecord = { at: now.toISOString(), event: 'restore', path, restored };
  const dir = await ensureDataDir('hooks');
  await appendFile(join(dir, 'trims.jsonl'), `${JSON.stringify(record)}\n`, { mode: 0o600 });
}

async function journalLines(env: NodeJS.ProcessEnv): Promise<unknown[]> {
  let text: string;
  try {
    text = await readFile(join(hooksDir(env), 'trims.jsonl'), 'utf8');
  } catch {
    return [];
  }
  const values: unknown[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      values.push(JSON.parse(line));
    } catch {
      // a torn line from a killed hook: skip it
    }
  }
  return values;
}

/** The trims of the journal, oldest first; lines that do not parse are skipped. */
export async function readTrimRecords(env: NodeJS.ProcessEnv = process.env): Promise<TrimRecord[]> {
  return (await journalLines(env)).filter((v): v is TrimRecord => !!v && typeof (v as TrimRecord).path === 'string' && typeof (v as TrimRecord).bytesBefore === 'number');
}

/** The backups that were put back since their trims. */
export async function restoredBackups(env: NodeJS.ProcessEnv = process.env): Promise<Set<string>> {
  const restores = (await journalLines(env)).filter((v): v is RestoreRecord => !!v && (v as RestoreRecord).event === 'restore' && typeof (v as RestoreRecord).restored === 'string');
  return new Set(restores.map((r) => r.restored));
}

async function readState(): Promise<Record<string, GuardState>> {
  try {
    const value = JSON.parse(await readFile(join(hooksDir(), 'state.json'), 'utf8')) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, GuardState>) : {};
  } catch {
    return {};
  }
}

export async function guardStateOf(path: string): Promise<GuardState | undefined> {
  const state = (await readState())[path];
  return state && typeof state.bytes === 'number' ? state : undefined;
}

export async function setGuardState(path: string, bytes: number, now = new Date()): Promise<void> {
  const dir = await ensureDataDir('hooks');
  const state = await readState();
  state[path] = { bytes, at: now.toISOString() };
  await writeFileAtomic(join(dir, 'state.json'), [`${JSON.stringify(state, null, 1)}\n`], 0o600);
}

/** Appends to hooks/hook.log (kept under about 1 MB: the older half moves to hook.log.1). */
export async function logHookMessage(message: string, now = new Date()): Promise<void> {
  const dir = await ensureDataDir('hooks');
  const path = join(dir, 'hook.log');
  try {
    if ((await stat(path)).size > LOG_LIMIT) await rename(path, `${path}.1`);
  } catch {
    // no log yet
  }
  await appendFile(path, `${now.toISOString()} ${message.replace(/\n/g, '\n    ')}\n`, { mode: 0o600 });
}

export function hookLogPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(hooksDir(env), 'hook.log');
}

/** The last `count` lines of hook.log. */
export async function recentHookMessages(count: number, env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  try {
    const lines = (await readFile(hookLogPath(env), 'utf8')).split('\n').filter((l) => l !== '' && !l.startsWith('    '));
    return lines.slice(-count);
  } catch {
    return [];
  }
}
