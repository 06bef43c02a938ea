// A worker thread of a snapshot: the facts of parts of a long log, modelled on another core while
// the caller goes on (the PreCompact hook trims the log meanwhile). The log's bytes are shared,
// not copied; the answer is the facts of each part, in order (small, plain data). The job comes
// as workerData, or as the first message to a worker started before the log was read. Asked for
// the history's chain too (the PreCompact hook's first snapshot of a long log), it first posts
// `{ note: text }`, the chain's lines as JSON text (history-chain.ts), as soon as they are read.

import { once } from 'node:events';
import { parentPort, workerData } from 'node:worker_threads';
import { factsOfParts, type ChainRequest } from './session-facts.js';

export interface FactsJob {
  /** The log, in memory the caller shares (a SharedArrayBuffer). */
  data: SharedArrayBuffer;
  length: number;
  /** [start, end) byte ranges, each modelled apart. */
  parts: [number, number][];
  /** Also the chain of the lines before this byte offset (the parts start at 0): see ChainRequest. */
  chainBytes?: number;
}

const job = (workerData as FactsJob | undefined) ?? ((await once(parentPort!, 'message'))[0] as FactsJob);
const data = Buffer.from(job.data, 0, job.length);
const chainBytes = job.chainBytes;
// The lines as JSON text: the caller, which holds the same bytes, digests them (store/snapshot.ts).
const chain: ChainRequest | undefined = chainBytes === undefined ? undefined : { bytes: chainBytes, give: (lines) => parentPort!.postMessage({ note: lines ? JSON.stringify(lines) : undefined }) };
parentPort!.postMessage(factsOfParts(data, job.parts, chain));
