// Atomic writes for everything that writes logs: a temp file beside the target, fsync, rename.
// A crash mid-write leaves either the old file or the new one, never a torn one.

import { open, rename, unlink, mkdir, copyFile, constants } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fromSystemError } from '../errors.js';

export type Chunks = Iterable<Buffer | string> | AsyncIterable<Buffer | string>;

export async function writeFileAtomic(path: string, chunks: Chunks, mode = 0o600): Promise<number> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  let written = 0;
  let handle;
  try {
    handle = await open(temp, 'wx', mode);
    let batch: Buffer[] = [];
    let batchBytes = 0;
    const flush = async () => {
      if (batchBytes === 0) return;
      const data = batch.length === 1 ? batch[0] : Buffer.concat(batch, batchBytes);
      await handle!.write(data, 0, data.length);
      batch = [];
      batchBytes = 0;
    };
    for await (const chunk of chunks) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      batch.push(buffer);
      batchBytes += buffer.length;
      written += buffer.length;
      if (batchBytes >= 1 << 20) await flush();
    }
    await flush();
    await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(temp, path);
    return written;
  } catch (error) {
    await handle?.close().catch(() => {});
    await unlink(temp).catch(() => {});
    throw fromSystemError(error, path);
  }
}

/** Copies a file to a backup path that does not exist yet (never overwrites an earlier backup). */
export async function backupFile(path: string, backupPath: string): Promise<void> {
  try {
    await mkdir(dirname(backupPath), { recursive: true });
    await copyFile(path, backupPath, constants.COPYFILE_EXCL);
  } catch (error) {
    throw fromSystemError(error, backupPath);
  }
}
