// A worker thread of a large pack write (pack-write.ts): deflates pages of a log held in shared
// memory, one after another, and answers with all of them in one transferred buffer. On libuv's
// threads each page needed turns of the calling thread between its pieces, which the PreCompact
// hook's trim keeps busy meanwhile; here the pages go through without waiting on it. The pages
// are needed last (the commit waits for them), so this thread steps back: the trim and the
// snapshot's facts, which the hook waits on first, keep the cores while they run.

import { parentPort, workerData } from 'node:worker_threads';
import { deflateSync } from 'node:zlib';
import { stepBack } from '../thread-priority.js';

export interface DeflateJob {
  /** The log, in memory the caller shares. */
  data: SharedArrayBuffer;
  /** [byte offset, length] of each page, in the order wanted. */
  pages: [number, number][];
  level: number;
}

export interface Deflated {
  /** Every page's deflated bytes, one after another. */
  bytes: ArrayBuffer;
  lengths: number[];
}

stepBack();
const job = workerData as DeflateJob;
// memLevel 9: see pack-write.ts.
const pieces = job.pages.map(([offset, length]) => deflateSync(Buffer.from(job.data, offset, length), { level: job.level, memLevel: 9 }));
const all = Buffer.concat(pieces);
// A Buffer this large has its own ArrayBuffer (no pool slab): it is moved, not copied.
const bytes = all.byteOffset === 0 && all.length === all.buffer.byteLength ? all.buffer : all.buffer.slice(all.byteOffset, all.byteOffset + all.length);
const answer: Deflated = { bytes: bytes as ArrayBuffer, lengths: pieces.map((p) => p.length) };
parentPort!.postMessage(answer, [answer.bytes]);
