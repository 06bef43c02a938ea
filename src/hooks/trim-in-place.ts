// The hooks' trim: in place, after a complete backup, holding the log's change lock. Lines Claude
// Code appends while it runs are carried into the trimmed log (trim/in-place.ts); nothing is ever
// undone by copying the backup back over the log.

import { trimInPlace, type InPlaceRequest } from '../trim/in-place.js';
import type { TrimRecord, TrimSource } from './trim-journal.js';

export interface InPlaceOptions {
  threshold: number;
  by: TrimSource;
  /** How long to wait for another in-place change of the same log (0: skip at once). */
  lockWaitMs: number;
  /** Give up before replacing the log after this time (ms since the epoch): the hook's deadline. */
  deadline?: number;
  now?: () => Date;
  /** See InPlaceRequest.historyWorker. */
  historyWorker?: boolean;
  /** See InPlaceRequest.replaceAfter. */
  replaceAfter?: Promise<unknown>;
  /** See InPlaceRequest.handedHistory. */
  handedHistory?: InPlaceRequest['handedHistory'];
}

export type InPlaceOutcome =
  /** historyHanded: the history's chain (or its first part) came from the snapshot (TrimResult.historyHanded). */
  | { status: 'trimmed'; record: TrimRecord; historyHanded?: boolean }
  /** Nothing to gain: the trim would not make the log smaller, so it was left alone. */
  | { status: 'unchanged'; bytes: number }
  | { status: 'busy' };

export async function trimLogInPlace(path: string, options: InPlaceOptions): Promise<InPlaceOutcome> {
  // Compaction keeps nothing before its boundary anyway; the hook never drops history itself.
  const outcome = await trimInPlace(path, {
    // What precedes the last boundary was trimmed by the hook at that compaction: copied as it is.
    options: { threshold: options.threshold, keepHistory: true, historyAsIs: true },
    by: options.by,
    lockWaitMs: options.lockWaitMs,
    deadline: options.deadline,
    now: options.now,
    historyWorker: options.historyWorker,
    replaceAfter: options.replaceAfter,
    handedHistory: options.handedHistory,
  });
  if (outcome.status === 'busy') return outcome;
  const r = outcome.result;
  if (outcome.status === 'unchanged') return { status: 'unchanged', bytes: r.input.bytes };
  const record: TrimRecord = {
    at: (options.now?.() ?? new Date()).toISOString(),
    by: options.by,
    path,
    sessionId: r.trimmed.facts.sessionId,
    bytesBefore: r.input.bytes,
    bytesAfter: outcome.record.result!.bytes,
    tokensBefore: r.input.tokens,
    tokensAfter: r.output.tokens,
    backup: outcome.backup,
    ...(outcome.carried.lines > 0 ? { carriedLines: outcome.carried.lines } : {}),
  };
  return { status: 'trimmed', record, ...(r.historyHanded ? { historyHanded: true } : {}) };
}
