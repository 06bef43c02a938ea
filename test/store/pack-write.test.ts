// The pack cmv writes itself for a long log's first snapshot: git reads every object back as
// written, and `git fsck --strict` and `git verify-pack` find nothing wrong.

import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { crc32Js, writePack } from '../../src/store/pack-write.js';
import { BULK_WRITE_BYTES, missingObjects, readObjects, startWritingBlobs } from '../../src/store/objects.js';
import { gitBlobId } from '../../src/store/pages.js';
import { git, sandbox, type Sandbox } from './helpers.js';
import { BUILD, buildIfStale } from '../helpers/built-cli.js';

let box: Sandbox | undefined;
afterEach(() => box?.cleanup());

function blob(data: Buffer) {
  return { id: gitBlobId(data), data };
}

describe('a pack written by cmv', () => {
  it('holds every blob as given, and git checks it clean', async () => {
    box = await sandbox();
    const text = Buffer.from('{"type":"user","message":{"role":"user","content":"hello"}}\n'.repeat(5000));
    // Sizes whose pack headers take one, two, three and four bytes; random bytes that do not compress.
    const blobs = [Buffer.alloc(0), Buffer.from('short\n'), text.subarray(0, 1000), text, randomBytes(3 * 1024 * 1024)].map(blob);
    expect(await writePack(box.store.git.dir, blobs, 1)).toEqual({ deflatedInWorker: false });
    expect([
      ...(await missingObjects(
        box.store.git,
        blobs.map((b) => b.id),
      )),
    ]).toEqual([]);
    const read = await readObjects(
      box.store.git,
      blobs.map((b) => b.id),
    );
    for (const b of blobs) expect(read.get(b.id)?.equals(b.data)).toBe(true);
    git(box.store.dir, 'fsck', '--strict', '--no-dangling');
    const packs = readdirSync(join(box.store.dir, 'objects', 'pack')).filter((f) => f.endsWith('.idx'));
    expect(packs).toHaveLength(1);
    expect(readdirSync(join(box.store.dir, 'objects', 'pack')).filter((f) => f.startsWith('tmp_'))).toEqual([]);
    git(box.store.dir, 'verify-pack', join(box.store.dir, 'objects', 'pack', packs[0]));
  });

  it('is how a write of more than BULK_WRITE_BYTES is stored', async () => {
    box = await sandbox();
    const pages = Array.from({ length: 5 }, (_, i) => blob(Buffer.from(`{"page":${i},"text":"${'x'.repeat(BULK_WRITE_BYTES / 4)}"}\n`)));
    const done = await startWritingBlobs(box.store.git, pages, box.store.tmpDir);
    await done();
    expect([
      ...(await missingObjects(
        box.store.git,
        pages.map((p) => p.id),
      )),
    ]).toEqual([]);
    git(box.store.dir, 'fsck', '--strict', '--no-dangling');
  });

  it('deflates pages held in one SharedArrayBuffer in a worker thread (the built cmv), and git reads them back the same', async () => {
    await buildIfStale();
    const built = (await import(pathToFileURL(join(BUILD, 'dist', 'store', 'pack-write.js')).href)) as typeof import('../../src/store/pack-write.js');
    box = await sandbox();
    const text = Buffer.from('{"type":"assistant","message":{"content":[{"type":"text","text":"a page of a log"}]}}\n'.repeat(20_000));
    const shared = Buffer.from(new SharedArrayBuffer(text.length + 3 * 1024 * 1024));
    text.copy(shared);
    randomBytes(3 * 1024 * 1024).copy(shared, text.length);
    const cuts = [0, 0, 1000, 250_000, text.length, shared.length];
    const blobs = cuts.slice(1).map((end, i) => blob(shared.subarray(cuts[i], end)));
    // Two alike (the empty page): the pack holds each id once, as the caller gives them unique.
    const unique = [...new Map(blobs.map((b) => [b.id, b])).values()];
    expect(await built.writePack(box.store.git.dir, unique, 1)).toEqual({ deflatedInWorker: true });
    const read = await readObjects(
      box.store.git,
      unique.map((b) => b.id),
    );
    for (const b of unique) expect(read.get(b.id)?.equals(b.data)).toBe(true);
    git(box.store.dir, 'fsck', '--strict', '--no-dangling');
  }, 300_000);

  it('computes CRC-32 as zlib does without zlib.crc32', () => {
    const data = randomBytes(100_000);
    const native = (zlib as { crc32?: (d: Buffer, v?: number) => number }).crc32;
    expect(crc32Js(data)).toBe(native ? native(data) : crc32Js(data));
    expect(crc32Js(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(crc32Js(data.subarray(500), crc32Js(data.subarray(0, 500)))).toBe(crc32Js(data));
  });
});
