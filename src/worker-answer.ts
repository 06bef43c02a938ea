// One answer from a worker thread: the snapshot's facts of a long log and the trim's chain of a long
// history are each computed on the other core while the caller goes on, and either falls back to
// doing the work itself when no answer comes.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * The first message of a worker thread running `url` with `data`; undefined when it failed (no
 * memory for its heap, a thread limit) or exited without one. Undefined at once when there is no
 * compiled worker (run from the TypeScript sources, as the tests are).
 */
export function workerAnswer<T>(url: URL, data: unknown): Promise<T | undefined> | undefined {
  if (!existsSync(fileURLToPath(url))) return undefined;
  return answerOf<T>(new Worker(url, { workerData: data }));
}

/** A worker's first message; undefined when it failed or exited without one. */
function answerOf<T>(worker: Worker): Promise<T | undefined> {
  return new Promise((resolve) => {
    worker.once('message', (answer: T) => resolve(answer));
    worker.once('error', () => resolve(undefined));
    worker.once('exit', () => resolve(undefined));
  });
}

/**
 * A worker thread started now, its job given later: its modules load while the caller gets the
 * job ready. `ask` posts the job and gives the one answer, as workerAnswer does (a worker reads
 * its job from workerData, or else from its first message); `cancel` ends one that gets no job.
 * Undefined when there is no compiled worker.
 */
export function workerForLater<T>(url: URL): { ask: (job: unknown) => Promise<T | undefined>; cancel: () => void } | undefined {
  if (!existsSync(fileURLToPath(url))) return undefined;
  const worker = new Worker(url);
  const answer = answerOf<T>(worker);
  return {
    ask: (job) => {
      worker.postMessage(job);
      return answer;
    },
    cancel: () => void worker.terminate(),
  };
}
