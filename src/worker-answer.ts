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

/**
 * A worker's answer, its first message not a note (`{ note }`, each handed to `onNote` as it
 * comes: something the worker has ready before its answer); undefined when it failed or exited
 * without one.
 */
function answerOf<T>(worker: Worker, onNote?: (note: unknown) => void): Promise<T | undefined> {
  return new Promise((resolve) => {
    const onMessage = (message: unknown) => {
      if (onNote && typeof message === 'object' && message !== null && 'note' in message) {
        onNote((message as { note: unknown }).note);
        return;
      }
      worker.off('message', onMessage);
      resolve(message as T);
    };
    worker.on('message', onMessage);
    worker.once('error', () => resolve(undefined));
    worker.once('exit', () => resolve(undefined));
  });
}

/**
 * A worker thread started now, its job given later: its modules load while the caller gets the
 * job ready. `ask` posts the job and gives the one answer, as workerAnswer does (a worker reads
 * its job from workerData, or else from its first message), and hands its notes to `onNote`;
 * `cancel` ends one that gets no job.
 * Undefined when there is no compiled worker.
 */
export function workerForLater<T>(url: URL): { ask: (job: unknown, onNote?: (note: unknown) => void) => Promise<T | undefined>; cancel: () => void } | undefined {
  if (!existsSync(fileURLToPath(url))) return undefined;
  const worker = new Worker(url);
  let noted: ((note: unknown) => void) | undefined;
  const answer = answerOf<T>(worker, (note) => noted?.(note));
  return {
    ask: (job, onNote) => {
      noted = onNote;
      worker.postMessage(job);
      return answer;
    },
    cancel: () => void worker.terminate(),
  };
}
