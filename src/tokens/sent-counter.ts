// Counts the tokens a trim removes, in this thread or on a worker thread started before the
// trim's first pass (so the rank table loads while the log is read). Either way the original
// records are read again from the log by offset: only the sent ones, which the context window bounds.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
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

export interface TokenWorker {
  count(job: TokenJob): Promise<SentTotals>;
  cancel(): void;
}

const WORKER_URL = new URL('./count-worker.js', import.meta.url);

/** Starts the worker, or returns undefined when the built worker is not there (tests run the sources). */
export function startTokenWorker(path: string): TokenWorker | undefined {
  if (!existsSync(fileURLToPath(WORKER_URL))) return undefined;
  // No execArgv: flags such as --input-type or --eval are meaningless (and fatal) in a worker.
  const worker = new Worker(WORKER_URL, { workerData: { path }, execArgv: [] });
  const reply = new Promise<SentTotals>((resolve, reject) => {
    worker.once('message', (message: { ok: boolean; totals?: SentTotals; error?: string }) => {
      if (message.ok && message.totals) resolve(message.totals);
      else reject(new Error(message.error ?? 'no answer'));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`token worker exited with ${code}`)));
  });
  reply.catch(() => undefined); // awaited in count(); a cancelled worker must not surface as unhandled
  return {
    count: async (job) => {
      worker.postMessage(job);
      try {
        return await reply;
      } catch {
        // A worker that cannot run (resource limits, a broken install): count here instead.
        return countSentTokens(path, job);
      } finally {
        void worker.terminate();
      }
    },
    cancel: () => void worker.terminate(),
  };
}
