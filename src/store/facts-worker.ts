// A worker thread of a snapshot: the facts of parts of a long log, modelled on another core while
// the caller goes on (the PreCompact hook trims the log meanwhile). The log's bytes are shared,
// not copied; the answer is the facts of each part, in order (small, plain data). The job comes
// as workerData, or as the first message to a worker started before the log was read.

import { once } from 'node:events';
import { parentPort, workerData } from 'node:worker_threads';
import { factsOfParts } from './session-facts.js';

export interface FactsJob {
  /** The log, in memory the caller shares (a SharedArrayBuffer). */
  data: SharedArrayBuffer;
  length: number;
  /** [start, end) byte ranges, each modelled apart. */
  parts: [number, number][];
}

const job = (workerData as FactsJob | undefined) ?? ((await once(parentPort!, 'message'))[0] as FactsJob);
const data = Buffer.from(job.data, 0, job.length);
parentPort!.postMessage(factsOfParts(data, job.parts));
