// Batch analysis over worker threads: files go out largest first, two at a time per worker, to a
// pool of workers; each answers with a small summary, so memory stays bounded by the largest
// files, not the folder. A file that fails (or crashes its worker) is reported and the batch goes on.

import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { analyseSessionCost } from './session-cost.js';
import { summariseCost, type SessionSummary } from './session-summary.js';
import { failureOf, type BatchFailure, type WorkerReply, type WorkerSetup } from './batch-protocol.js';
import type { BatchFile } from './batch-files.js';
import { ModelRegistry } from '../cost/registry.js';

export interface BatchProgress {
  done: number;
  total: number;
  bytesDone: number;
  bytesTotal: number;
}

export interface BatchOptions extends WorkerSetup {
  /** Threads, this one included (default: the cores, or this one alone for a small batch); N means N - 1 workers beside this one. */
  jobs?: number;
  /** Once the files are known, before any is analysed. */
  onStart?: (progress: BatchProgress) => void;
  /** After each file. */
  onProgress?: (progress: BatchProgress) => void;
}

export interface BatchResult {
  sessions: SessionSummary[];
  failed: BatchFailure[];
  skipped: BatchFailure[];
  /** Worker threads used (0: analysed in this thread). */
  workers: number;
}

const WORKER_URL = new URL('./analyze-worker.js', import.meta.url);

/**
 * Below this many bytes a batch is analysed in this thread unless --jobs says otherwise: a worker
 * costs about 0.1 s of CPU to start (its modules; the rank table is read from the build's file in
 * milliseconds), while a MB of log takes about 0.07 s to analyse.
 */
export const SMALL_BATCH_BYTES = 8 * 1024 * 1024;

export function defaultJobs(): number {
  return Math.max(1, availableParallelism());
}

export async function analyseBatch(files: BatchFile[], options: BatchOptions): Promise<BatchResult> {
  const queue = [...files].sort((a, b) => b.bytes - a.bytes);
  const sessions: SessionSummary[] = [];
  const failures: BatchFailure[] = [];
  const progress: BatchProgress = { done: 0, total: files.length, bytesDone: 0, bytesTotal: files.reduce((n, f) => n + f.bytes, 0) };
  const record = (file: BatchFile, reply: Omit<WorkerReply, 'id'>) => {
    if (reply.summary) sessions.push(reply.summary);
    else if (reply.failure) failures.push(reply.failure);
    progress.done++;
    progress.bytesDone += file.bytes;
    options.onProgress?.({ ...progress });
  };

  options.onStart?.({ ...progress });

  const wanted = options.jobs ?? (progress.bytesTotal < SMALL_BATCH_BYTES ? 1 : defaultJobs());
  const jobs = Math.min(wanted, queue.length);
  // From the TypeScript sources (tests) there is no compiled worker: analyse in this thread.
  const canSpawn = existsSync(fileURLToPath(WORKER_URL));
  // This thread is one of the jobs: it has the modules loaded already, and would otherwise sit
  // idle while the workers analyse (see analyseHere).
  const workers = jobs > 1 && canSpawn ? jobs - 1 : 0;
  const shared: Queued[] = queue.map((file) => ({ file }));
  if (workers === 0) await analyseHere(shared, options, record);
  else await Promise.all([analyseInWorkers(shared, workers, options, record), analyseHere(shared, options, record, { besideWorkers: true })]);

  const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
  return {
    sessions: sessions.sort(byPath),
    failed: failures.filter((f) => !f.skipped).sort(byPath),
    skipped: failures.filter((f) => f.skipped).sort(byPath),
    workers,
  };
}

type Recorder = (file: BatchFile, reply: Omit<WorkerReply, 'id'>) => void;

/**
 * Analyses the queue's files in this thread until it is empty. Beside worker threads (the queue
 * shared with them) it takes the smallest files, from the queue's end, while the workers take the
 * largest first: a file analysed here holds this thread, which hands the workers their next
 * files, for as long as it takes, so the files taken here are the shortest ones; the two ends
 * meet at the last file. Between files the workers' replies are handled first.
 */
async function analyseHere(queue: Queued[], options: WorkerSetup, record: Recorder, lane: { besideWorkers?: boolean } = {}): Promise<void> {
  const registry = new ModelRegistry(options.models);
  for (;;) {
    if (lane.besideWorkers) await new Promise((resolve) => setImmediate(resolve));
    const item = lane.besideWorkers ? queue.pop() : queue.shift();
    if (!item) return;
    const { file } = item;
    try {
      record(file, { summary: summariseCost(await analyseSessionCost(file.path, { registry, model: options.model, trim: options.trim })) });
    } catch (error) {
      record(file, { failure: failureOf(file.path, error) });
    }
  }
}

/**
 * Files each worker holds at once: while one waits for the disk (opening, reading), the worker
 * works on the other, rather than sitting idle; memory is then bounded by two files per worker.
 */
export const FILES_IN_FLIGHT = 2;

interface Queued {
  file: BatchFile;
  /** Was in flight with another file when its worker crashed: analysed alone, so a crash is its own. */
  alone?: boolean;
}

/** Analyses the queue's files (shared with this thread, which takes from its end) in `count` workers. */
function analyseInWorkers(queue: Queued[], count: number, options: WorkerSetup, record: Recorder): Promise<void> {
  const setup: WorkerSetup = { models: options.models, model: options.model, trim: options.trim };
  let nextId = 0;
  let running = 0;
  return new Promise((resolveAll) => {
    const start = () => {
      const worker = new Worker(WORKER_URL, { workerData: setup });
      const inFlight = new Map<number, Queued>();
      let finished = false;
      running++;
      const fill = () => {
        while (!finished && queue.length > 0) {
          const alone = queue[0].alone || [...inFlight.values()].some((q) => q.alone);
          // Near the queue's end a second file would wait behind the first while this thread,
          // which takes the queue's other end, runs out of files: one at a time then.
          if (inFlight.size >= (alone || queue.length <= FILES_IN_FLIGHT ? 1 : FILES_IN_FLIGHT)) return;
          const item = queue.shift()!;
          const id = nextId++;
          inFlight.set(id, item);
          worker.postMessage({ id, path: item.file.path });
        }
        if (inFlight.size === 0 && !finished) {
          finished = true;
          void worker.terminate();
        }
      };
      worker.on('message', (reply: WorkerReply) => {
        const item = inFlight.get(reply.id);
        if (!item) return;
        inFlight.delete(reply.id);
        record(item.file, reply);
        fill();
      });
      // A crash (out of memory, a bug) fails the file it was on; a fresh worker takes the rest. With
      // more than one file in flight the culprit is unknown: each goes back to be analysed alone.
      const crashed = (error: unknown) => {
        if (finished) return;
        finished = true;
        const held = [...inFlight.values()];
        inFlight.clear();
        if (held.length === 1) record(held[0].file, { failure: failureOf(held[0].file.path, error) });
        else queue.unshift(...held.map((q) => ({ file: q.file, alone: true })));
        void worker.terminate();
      };
      worker.on('error', crashed);
      worker.on('exit', (code) => {
        crashed(new Error(`the analysis thread stopped (exit code ${code})`));
        running--;
        if (queue.length > 0) start();
        else if (running === 0) resolveAll();
      });
      fill();
    };
    for (let i = 0; i < count; i++) start();
  });
}
