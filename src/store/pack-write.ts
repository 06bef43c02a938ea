// A large set of new blobs (a long log's first snapshot) written as one git pack by cmv itself:
// the pages' ids are known already (they were hashed to cut them), so git's fast-import would only
// hash them again and compress them in one thread. Here the pages are deflated in a worker thread
// when they share one SharedArrayBuffer (a long log's snapshot), else on libuv's threads (two at a
// time, leaving the others to file I/O), and the pack and its index (format 2, no
// deltas: `cmv gc` repacks them properly later) are synced and renamed into objects/pack, the
// index last, as git does: a pack is seen only once its index is in place.

import { createHash, randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import { promisify } from 'node:util';
import type { Blob } from './objects.js';
import type { DeflateJob, Deflated } from './deflate-worker.js';
import { workerAnswer } from '../worker-answer.js';

const deflate = promisify(zlib.deflate);

/** Pages deflated at once: libuv has 4 threads, and file reads and writes queue behind these. */
const DEFLATING = 2;

const OBJ_BLOB = 3;

/** The pack header of one object: its type and size, 7 bits a byte after the first 4. */
function objectHeader(type: number, size: number): Buffer {
  const bytes: number[] = [];
  let byte = (type << 4) | (size & 0x0f);
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    bytes.push(byte | 0x80);
    byte = rest & 0x7f;
    rest = Math.floor(rest / 128);
  }
  bytes.push(byte);
  return Buffer.from(bytes);
}

let CRC_TABLE: Uint32Array | undefined;

/** CRC-32 as zlib computes it, in JavaScript: zlib.crc32 is there from Node 20.15 only. */
export function crc32Js(data: Buffer, value = 0): number {
  if (!CRC_TABLE) {
    CRC_TABLE = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      CRC_TABLE[n] = c >>> 0;
    }
  }
  let c = ~value >>> 0;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

const crc32: (data: Buffer, value?: number) => number = (zlib as { crc32?: (data: Buffer, value?: number) => number }).crc32 ?? crc32Js;

function uint32(value: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(value >>> 0);
  return b;
}

/** The pack index (version 2) of objects at these offsets, with these CRCs. */
function packIndex(objects: { id: Buffer; offset: number; crc: number }[], packSha: Buffer): Buffer {
  const sorted = [...objects].sort((a, b) => Buffer.compare(a.id, b.id));
  const fanout = Buffer.alloc(256 * 4);
  let at = 0;
  for (let byte = 0; byte < 256; byte++) {
    while (at < sorted.length && sorted[at].id[0] === byte) at++;
    fanout.writeUInt32BE(at, byte * 4);
  }
  const large: number[] = [];
  const offsets = Buffer.alloc(sorted.length * 4);
  sorted.forEach((o, i) => {
    if (o.offset < 0x80000000) offsets.writeUInt32BE(o.offset, i * 4);
    else {
      offsets.writeUInt32BE((0x80000000 | large.length) >>> 0, i * 4);
      large.push(o.offset);
    }
  });
  const largeOffsets = Buffer.alloc(large.length * 8);
  large.forEach((offset, i) => largeOffsets.writeBigUInt64BE(BigInt(offset), i * 8));
  const body = Buffer.concat([Buffer.from([0xff, 0x74, 0x4f, 0x63]), uint32(2), fanout, ...sorted.map((o) => o.id), ...sorted.map((o) => uint32(o.crc)), offsets, largeOffsets, packSha]);
  return Buffer.concat([body, createHash('sha1').update(body).digest()]);
}

async function writeSynced(path: string, pieces: Buffer[]): Promise<void> {
  const handle = await open(path, 'wx', 0o444);
  try {
    await handle.writev(pieces);
    await handle.sync(); // core.fsync=committed: objects are on disk before a ref names them
  } finally {
    await handle.close();
  }
}

const DEFLATE_WORKER = new URL('./deflate-worker.js', import.meta.url);

/** Pages all in one SharedArrayBuffer (a long log as a snapshot reads it): deflated in a worker thread. */
async function deflatedInWorker(blobs: Blob[], level: number): Promise<Buffer[] | undefined> {
  const shared = blobs[0]?.data.buffer;
  if (!(shared instanceof SharedArrayBuffer) || !blobs.every((b) => b.data.buffer === shared)) return undefined;
  const job: DeflateJob = { data: shared, pages: blobs.map((b) => [b.data.byteOffset, b.data.length]), level };
  const answer = await workerAnswer<Deflated>(DEFLATE_WORKER, job);
  if (!answer || answer.lengths.length !== blobs.length) return undefined;
  const all = Buffer.from(answer.bytes);
  let at = 0;
  return answer.lengths.map((length) => all.subarray(at, (at += length)));
}

/** Each blob deflated, on libuv's threads, DEFLATING at a time. */
async function deflatedHere(blobs: Blob[], level: number): Promise<Buffer[]> {
  const compressed: Buffer[] = new Array(blobs.length);
  let next = 0;
  const deflating = async () => {
    while (next < blobs.length) {
      const i = next++;
      // memLevel 9 (zlib's largest hash table): the same stream format and size within 0.2%, and
      // 8-10% less CPU than the default 8 at level 1 on a 50 MB log's pages. One output chunk per
      // page: each further chunk is a turn of this thread between pieces of the deflate.
      compressed[i] = await deflate(blobs[i].data, { level, memLevel: 9, chunkSize: blobs[i].data.length + 64 * 1024 });
    }
  };
  await Promise.all(Array.from({ length: Math.min(DEFLATING, blobs.length) }, deflating));
  return compressed;
}

/** Writes the blobs (ids as computed by gitBlobId, no two alike) as one pack in the repository at `gitDir`. */
export async function writePack(gitDir: string, blobs: Blob[], level: number): Promise<{ deflatedInWorker: boolean }> {
  const inWorker = await deflatedInWorker(blobs, level);
  const compressed = inWorker ?? (await deflatedHere(blobs, level));

  const pieces: Buffer[] = [Buffer.from('PACK'), uint32(2), uint32(blobs.length)];
  const hash = createHash('sha1');
  for (const piece of pieces) hash.update(piece);
  let offset = 12;
  const objects = blobs.map((blob, i) => {
    const header = objectHeader(OBJ_BLOB, blob.data.length);
    const data = compressed[i];
    hash.update(header).update(data);
    pieces.push(header, data);
    const object = { id: Buffer.from(blob.id, 'hex'), offset, crc: crc32(data, crc32(header)) };
    offset += header.length + data.length;
    return object;
  });
  const packSha = hash.digest();
  pieces.push(packSha);
  const dir = join(gitDir, 'objects', 'pack');
  const name = `pack-${packSha.toString('hex')}`;
  const temp = join(dir, `tmp_pack_${process.pid}_${randomBytes(4).toString('hex')}`);
  try {
    await writeSynced(`${temp}.pack`, pieces);
    await writeSynced(`${temp}.idx`, [packIndex(objects, packSha)]);
    await rename(`${temp}.pack`, join(dir, `${name}.pack`));
    await rename(`${temp}.idx`, join(dir, `${name}.idx`));
  } catch (error) {
    await unlink(`${temp}.pack`).catch(() => {});
    await unlink(`${temp}.idx`).catch(() => {});
    throw error;
  }
  const folder = await open(dir, 'r').catch(() => undefined);
  await folder?.sync().catch(() => {});
  await folder?.close();
  return { deflatedInWorker: inWorker !== undefined };
}
