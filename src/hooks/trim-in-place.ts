// The hooks' trim: in place, after a backup, holding a per-log lock, and undone at once when
// Claude Code appended to the log while it was being trimmed (those lines would be lost).

import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { stat, unlink } from 'node:fs/promises';
import { trimToDestination } from '../trim/apply.js';
import { acquireLock } from '../store/lock.js';
import { ensureDataDir } from '../store/location.js';
import { writeFileAtomic } from '../session/write.js';
import type { TrimRecord, TrimSource } from './trim-journal.js';

export interface InPlaceOptions {
  threshold: number;
  by: TrimSource;
  /** How long to wait for another hook trimming the same log (0: skip at once). */
  lockWaitMs: number;
  now?: () => Date;
}

export type InPlaceOutcome =
  | { status: 'trimmed'; record: TrimRecord }
  /** Nothing to gain: the trim would not make the log smaller, so it was left alone. */
  | { status: 'unchanged'; bytes: number }
  | { status: 'busy' }
  /** Claude Code wrote to the log meanwhile: the trim was undone from its backup. */
  | { status: 'raced'; backup: string };

async function lockFor(path: string, waitMs: number) {
  const key = createHash('sha1').update(path).digest('hex').slice(0, 16);
  const lockPath = join(await ensureDataDir('hooks'), `trim-${key}.lock`);
  try {
    return await acquireLock(lockPath, waitMs);
  } catch {
    return undefined;
  }
}

export async function trimLogInPlace(path: string, options: InPlaceOptions): Promise<InPlaceOutcome> {
  const lock = await lockFor(path, options.lockWaitMs);
  if (!lock) return { status: 'busy' };
  try {
    // Compaction keeps nothing before its boundary anyway; the hook never drops history itself.
    // What precedes the last boundary was trimmed by the hook at that compaction: copied as it is.
    const trimOptions = { threshold: options.threshold, keepHistory: true, historyAsIs: true };
    const applied = await trimToDestination(path, trimOptions, { kind: 'in-place' });
    const r = applied.result;
    const backup = applied.backup as string;
    if ((await stat(backup)).size !== r.input.bytes) {
      // The backup (taken after the trim read the log) holds lines the trimmed log lacks.
      await writeFileAtomic(path, createReadStream(backup) as AsyncIterable<Buffer>);
      return { status: 'raced', backup };
    }
    if (r.output.bytes >= r.input.bytes) {
      // A trimmed log trims to itself, byte for byte: its backup is a copy of what is there.
      await unlink(backup).catch(() => {});
      return { status: 'unchanged', bytes: r.input.bytes };
    }
    const record: TrimRecord = {
      at: (options.now?.() ?? new Date()).toISOString(),
      by: options.by,
      path,
      sessionId: r.trimmed.facts.sessionId,
      bytesBefore: r.input.bytes,
      bytesAfter: r.output.bytes,
      tokensBefore: r.input.tokens,
      tokensAfter: r.output.tokens,
      backup,
    };
    return { status: 'trimmed', record };
  } finally {
    await lock.release();
  }
}
