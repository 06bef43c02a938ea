// A worker thread of `cmv analyze`: analyses one file per message and answers with its summary or
// its error. At most FILES_IN_FLIGHT (batch.ts) files at once, so a worker's memory is bounded by
// its two largest files; one waits for the disk while the other is worked on.

import { parentPort, workerData } from 'node:worker_threads';
import { analyseSessionCost } from './session-cost.js';
import { summariseCost } from './session-summary.js';
import { ModelRegistry } from '../cost/registry.js';
import { countTokens } from '../tokens/counter.js';
import { failureOf, type BatchJob, type WorkerReply, type WorkerSetup } from './batch-protocol.js';

const setup = workerData as WorkerSetup;
const registry = new ModelRegistry(setup.models);
// Load the tokenizer's rank table now, while the main thread is still finding files.
countTokens('warm up the tokenizer');

parentPort!.on('message', async (job: BatchJob) => {
  let reply: WorkerReply;
  try {
    const cost = await analyseSessionCost(job.path, { registry, model: setup.model, trim: setup.trim });
    reply = { id: job.id, summary: summariseCost(cost) };
  } catch (error) {
    reply = { id: job.id, failure: failureOf(job.path, error) };
  }
  parentPort!.postMessage(reply);
});
