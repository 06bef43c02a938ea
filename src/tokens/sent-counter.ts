// Counts the tokens a trim removes: the original records are read again from the log by offset
// (only the sent ones, which the context window bounds), the trimmed ones come with the job.
// Pure apart from reading the log; the job is plain data.

import { SentTokenLedger, countOriginalsFromFile, type SentRecordRef, type SentTotals } from './sent-ledger.js';
import type { JsonObject } from '../session/payload.js';

/** A sent entry the trim changed: its new JSON line, or null when it was removed. */
export interface SentChange {
  index: number;
  isAssistant: boolean;
  json: string | null;
}

export interface TokenJob {
  refs: SentRecordRef[];
  toolNames: [string, string][];
  changes: SentChange[];
}

export function countSentTokens(path: string, job: TokenJob): SentTotals {
  const ledger = new SentTokenLedger(new Map(job.toolNames));
  countOriginalsFromFile(path, job.refs, ledger);
  for (const change of job.changes) ledger.trimmedAs(change.index, change.isAssistant, change.json === null ? null : (JSON.parse(change.json) as JsonObject));
  return ledger.totals();
}
