// A worker thread of the trim: the chain of a long history (the lines a hook trim copies as they
// are), read from the backup while pass 1 reads what follows it in the main thread.

import { parentPort, workerData } from 'node:worker_threads';
import { readHistoryChain } from './history-chain.js';

const job = workerData as { path: string; bytes: number };
const chain = await readHistoryChain(job.path, job.bytes);
// As JSON text, which the main thread parses and keeps as the chain's file (see historyChainInWorker).
parentPort!.postMessage(chain ? JSON.stringify(chain) : undefined);
