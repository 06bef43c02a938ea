// Atomic writes of logs: the target holds either the old bytes or all of the new ones, never a
// torn file, and a backup never overwrites an earlier one.

import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AtomicWriter, backupFile, writeFileAtomic } from '../../src/session/write.js';
import { CmvError } from '../../src/errors.js';

describe('writeFileAtomic', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cmv-write-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes every chunk, strings and buffers, across several flushes', async () => {
    const path = join(dir, 'big.jsonl');
    const line = `${JSON.stringify({ type: 'user', text: 'é'.repeat(1000) })}\n`;
    const chunks = Array.from({ length: 1500 }, (_, i) => (i % 2 ? line : Buffer.from(line))); // ~3 MB: more than one 1 MB batch
    const written = await writeFileAtomic(path, chunks);
    const expected = Buffer.from(line.repeat(1500));
    expect(written).toBe(expected.length);
    expect(readFileSync(path).equals(expected)).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('copies what it is given: a view into a larger buffer is not kept (nor changed) until the batch is written', async () => {
    const path = join(dir, 'views.jsonl');
    const writer = await AtomicWriter.open(path);
    // Lines as the reader yields them: views into one large read chunk, reused once read.
    const chunk = Buffer.from('{"n":1}\n{"n":2}\n{"n":3}\n'.padEnd(4096, ' '));
    for (let at = 0; at < 24; at += 8) await writer.write(chunk.subarray(at, at + 8));
    chunk.fill(0x78);
    // A piece larger than a batch goes out on its own, between the batched ones.
    const big = Buffer.alloc(2 << 20, 0x61);
    await writer.write(big);
    await writer.write('\n');
    await writer.commit();
    const text = readFileSync(path, 'utf8');
    expect(text.slice(0, 24)).toBe('{"n":1}\n{"n":2}\n{"n":3}\n');
    expect(text.length).toBe(24 + (2 << 20) + 1);
    expect(text.slice(24, 30)).toBe('aaaaaa');
    expect(writer.bytesWritten).toBe(text.length);
  });

  it('creates missing folders', async () => {
    const path = join(dir, 'a', 'b', 'c.jsonl');
    await writeFileAtomic(path, ['{}\n']);
    expect(readFileSync(path, 'utf8')).toBe('{}\n');
  });

  it('keeps the old file and leaves no temp file when the new content fails midway', async () => {
    const path = join(dir, 'session.jsonl');
    writeFileSync(path, 'old bytes\n');
    async function* failing() {
      yield Buffer.alloc(2 * 1024 * 1024, 0x61); // flushed to the temp file before the failure
      throw new Error('source broke');
    }
    await expect(writeFileAtomic(path, failing())).rejects.toThrow('source broke');
    expect(readFileSync(path, 'utf8')).toBe('old bytes\n');
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('AtomicWriter.prefill', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cmv-prefill-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A source of `bytes` bytes, no two 8 MB pieces alike (the copy goes a piece at a time). */
  function source(name: string, bytes: number): Buffer {
    const data = Buffer.alloc(bytes);
    for (let i = 0; i + 4 <= bytes; i += 4) data.writeUInt32LE(i >>> 0, i);
    writeFileSync(join(dir, name), data);
    return data;
  }

  it("puts the source's first bytes first, the writes made meanwhile after them, and syncs both", async () => {
    const data = source('history.bin', 17 * 1024 * 1024 + 12); // three pieces, the last short
    const prefix = 17 * 1024 * 1024 + 8;
    const path = join(dir, 'out.jsonl');
    const writer = await AtomicWriter.open(path);
    writer.prefill(join(dir, 'history.bin'), prefix);
    expect(writer.prefilled).toBe(prefix);
    // Written while the copy runs: small pieces (batched) and one larger than a batch.
    await writer.write('{"after":1}\n');
    await writer.write(Buffer.alloc(3 << 20, 0x62));
    await writer.write('{"after":2}\n');
    await writer.commit();
    const out = readFileSync(path);
    expect(out.subarray(0, prefix).equals(data.subarray(0, prefix))).toBe(true);
    expect(out.subarray(prefix, prefix + 12).toString()).toBe('{"after":1}\n');
    expect(out.length).toBe(prefix + 12 + (3 << 20) + 12);
    expect(out.subarray(out.length - 12).toString()).toBe('{"after":2}\n');
    expect(writer.bytesWritten).toBe(out.length);
  });

  it('rewind empties the file again for a caller that writes it whole after all', async () => {
    source('short.bin', 1000);
    const path = join(dir, 'rewound.jsonl');
    const writer = await AtomicWriter.open(path);
    writer.prefill(join(dir, 'short.bin'), 1000);
    await writer.rewind();
    expect(writer.prefilled).toBe(0);
    await writer.write('whole\n');
    await writer.commit();
    expect(readFileSync(path, 'utf8')).toBe('whole\n');
  });

  it('is refused once something was written, and a source that is too short fails the file at finish', async () => {
    source('tiny.bin', 10);
    const writer = await AtomicWriter.open(join(dir, 'late.jsonl'));
    await writer.write('x');
    expect(() => writer.prefill(join(dir, 'tiny.bin'), 5)).toThrow(CmvError);
    await writer.abort();
    const path = join(dir, 'short-source.jsonl');
    const short = await AtomicWriter.open(path);
    short.prefill(join(dir, 'tiny.bin'), 100);
    await short.write('after\n');
    await expect(short.commit()).rejects.toThrow(/shrank/);
    expect(readdirSync(dir).filter((f) => f.startsWith('.short-source'))).toEqual([]);
    expect(readdirSync(dir)).not.toContain('short-source.jsonl');
  });
});

describe('backupFile', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cmv-backup-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('copies the file and never overwrites an earlier backup', async () => {
    const source = join(dir, 'session.jsonl');
    const backup = join(dir, 'backups', 'session.1.jsonl');
    writeFileSync(source, 'first\n');
    await backupFile(source, backup);
    writeFileSync(source, 'second\n');
    const error = await backupFile(source, backup).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CmvError);
    expect(readFileSync(backup, 'utf8')).toBe('first\n');
  });
});

describe('what is synced to the disk', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cmv-write-sync-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Calls of FileHandle#sync made by `fn`. */
  async function syncs(fn: () => Promise<unknown>): Promise<number> {
    const probe = await open(join(dir, 'probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as { sync: () => Promise<void> };
    await probe.close();
    const spy = vi.spyOn(proto, 'sync');
    try {
      await fn();
      return spy.mock.calls.length;
    } finally {
      spy.mockRestore();
    }
  }

  it('a log or any durable file is synced before it is renamed into place; a cache and a scratch file are not', async () => {
    expect(await syncs(() => writeFileAtomic(join(dir, 'log.jsonl'), ['{"type":"user"}\n']))).toBe(1);
    expect(await syncs(() => writeFileAtomic(join(dir, 'chain.cache'), ['{}'], 0o600, false))).toBe(0);
    expect(readFileSync(join(dir, 'chain.cache'), 'utf8')).toBe('{}');
    const scratch = join(dir, 'spill.pass1');
    expect(
      await syncs(async () => {
        const writer = await AtomicWriter.openScratch(scratch);
        await writer.write('line\n');
        await writer.finish();
      }),
    ).toBe(0);
    expect(readFileSync(scratch, 'utf8')).toBe('line\n');
  });
});
