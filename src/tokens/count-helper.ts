// A worker thread for the trim's token count: started before the trim reads the log, so the
// rank table loads on the other core meanwhile; if it cannot run, the count happens here.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { countSentTokens, type TokenJob } from './sent-counter.js';
import type { SentTotals } from './sent-ledger.js';

export interface TokenCounter {
  count(job: TokenJob): Promise<SentTotals>;
  stop(): void;
}

const WORKER_URL = new URL('./count-worker.js', import.meta.url);

/** Starts the worker, or returns undefined when the built worker is not there (tests run the sources). */
export function startTokenCounter(path: string): TokenCounter | undefined {
  if (!existsSync(fileURLToPath(WORKER_URL))) return undefined;
  // No execArgv: flags such as --input-type or --eval are meaningless (and fatal) in a worker.
  const worker = new Worker(WORKER_URL, { workerData: { path }, execArgv: [] });
  const totals = new Promise<SentTotals | undefined>((resolve) => {
    worker.once('message', (message: { totals?: SentTotals }) => resolve(message.totals));
    worker.once('error', () => resolve(undefined));
    worker.once('exit', () => resolve(undefined));
  });
  return {
    count: async (job) => {
      worker.postMessage(job);
      // A worker that cannot count (resource limits, a broken install): count here instead.
      return (await totals) ?? countSentTokens(path, job);
    },
    stop: () => void worker.terminate(),
  };
}
