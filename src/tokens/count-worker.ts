// The token worker (see count-helper.ts): loads the rank table at once, counts one job.

import { parentPort, workerData } from 'node:worker_threads';
import { countSentTokens, type TokenJob } from './sent-counter.js';
import { countTokens } from './counter.js';

const { path } = workerData as { path: string };
parentPort!.once('message', (job: TokenJob) => {
  try {
    parentPort!.postMessage({ totals: countSentTokens(path, job) });
  } catch (error) {
    parentPort!.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});
countTokens('warm up');
