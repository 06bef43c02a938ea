// The token worker: loads the rank table at once, then counts one job for the trim running on
// the main thread (see sent-counter.ts) and answers with the totals.

import { parentPort, workerData } from 'node:worker_threads';
import { countSentTokens, type TokenJob } from './sent-counter.js';
import { countTokens } from './counter.js';

const { path } = workerData as { path: string };
countTokens('warm up');

parentPort!.once('message', (job: TokenJob) => {
  try {
    parentPort!.postMessage({ ok: true, totals: countSentTokens(path, job) });
  } catch (error) {
    parentPort!.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) });
  }
});
