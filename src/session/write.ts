// Atomic writes for everything that writes logs: a temp file beside the target, fsync, rename.
// A crash mid-write leaves either the old file or the new one, never a torn one.

import { open, readdir, rename, unlink, mkdir, copyFile, constants, type FileHandle } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { CmvError, fromSystemError } from '../errors.js';

export type Chunks = Iterable<Buffer | string> | AsyncIterable<Buffer | string>;

const BATCH_BYTES = 1 << 20;

/**
 * The temp files cmv writes beside a target: `.<name>.<pid>.<8 hex>.tmp`, and the trim's scratch
 * `<that>.pass1`. The pid says whose they are, so a later run can tell one left by a killed process.
 */
const TEMP_NAME = /^\..+\.(\d+)\.[0-9a-f]{8}\.tmp(?:\.pass1)?$/;

export function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the temp files a killed cmv left in `dir` (its pid is gone), so a kill leaves no litter
 * in the Claude projects folder beyond the next run. Never touches another live process's temps.
 */
export async function removeStaleTemps(dir: string): Promise<string[]> {
  const removed: string[] = [];
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    const match = TEMP_NAME.exec(name);
    if (!match || processAlive(Number(match[1]))) continue;
    try {
      await unlink(join(dir, name));
      removed.push(name);
    } catch {
      // gone already, or not ours to remove
    }
  }
  return removed;
}

/** A file written in pieces to a temp file, which becomes `path` only on commit. */
export class AtomicWriter {
  readonly path: string;
  readonly tempPath: string;
  private handle?: FileHandle;
  /**
   * Pieces are copied into the batch: a caller's piece is often a view into a larger buffer (a line
   * of a 4 MB read chunk), and keeping the view until the batch fills would keep the whole chunk.
   */
  private batch: Buffer = Buffer.allocUnsafe(BATCH_BYTES);
  private batchBytes = 0;
  /** The batch being written while the next one fills (I/O overlaps the caller's work). */
  private writing?: Promise<void>;
  /** The buffer of the write in flight, reused as the next batch once that write is done. */
  private spare?: Buffer;
  bytesWritten = 0;
  /** Where the next batch lands: writes are positioned, so a prefill can be written beside them. */
  private position = 0;
  /** Another file's first bytes being copied in (prefill), and synced once copied. */
  private prefilling?: Promise<void>;
  /** Bytes at the file's start that prefill() copies, or has copied. */
  prefilled = 0;

  private constructor(
    path: string,
    tempPath: string,
    handle: FileHandle,
    /** finish() syncs the file to the disk; false for a file nothing needs after a crash (a scratch file, a cache). */
    private readonly durable = true,
  ) {
    this.path = path;
    this.tempPath = tempPath;
    this.handle = handle;
  }

  static async open(path: string, mode = 0o600, durable = true): Promise<AtomicWriter> {
    const dir = dirname(path);
    const tempPath = tempPathFor(path);
    try {
      await mkdir(dir, { recursive: true });
      await removeStaleTemps(dir);
      const handle = await open(tempPath, 'wx', mode);
      // The mode asked for, whatever the umask (an in-place write keeps the log's own mode).
      if (mode !== 0o600) await handle.chmod(mode);
      return new AtomicWriter(path, tempPath, handle, durable);
    } catch (error) {
      throw fromSystemError(error, path);
    }
  }

  /**
   * A scratch file at exactly `tempPath` (created new), written like any other but never committed
   * nor synced: it is read back by the process that wrote it and removed (a crash leaves a temp
   * file the next write in its folder removes).
   */
  static async openScratch(tempPath: string, mode = 0o600): Promise<AtomicWriter> {
    try {
      return new AtomicWriter(tempPath, tempPath, await open(tempPath, 'wx', mode), false);
    } catch (error) {
      throw fromSystemError(error, tempPath);
    }
  }

  /**
   * Starts copying the first `bytes` of `source` to the file's start, in the background: writes
   * made meanwhile land after them. Once copied they are synced to the disk (when durable), so
   * the sync of finish() has only the rest left. Only before any write; errors surface at finish().
   */
  prefill(source: string, bytes: number): void {
    if (this.bytesWritten > 0 || this.prefilling || !this.handle) throw new CmvError('INTERNAL', 'a prefill comes before any write', { hint: 'report this as a bug' });
    const handle = this.handle;
    this.prefilled = bytes;
    this.position = bytes;
    this.bytesWritten = bytes;
    this.prefilling = copyRange(source, handle, bytes).then(() => (this.durable ? handle.datasync() : undefined));
    this.prefilling.catch(() => undefined); // surfaced by finish()
  }

  /** Undoes a prefill (the caller writes the whole file after all): the file is empty again. */
  async rewind(): Promise<void> {
    if (this.bytesWritten !== this.prefilled) throw new CmvError('INTERNAL', 'only a prefill can be undone', { hint: 'report this as a bug' });
    await this.prefilling?.catch(() => undefined);
    this.prefilling = undefined;
    this.prefilled = 0;
    this.position = 0;
    this.bytesWritten = 0;
    try {
      await this.handle?.truncate(0);
    } catch (error) {
      await this.abort();
      throw fromSystemError(error, this.path);
    }
  }

  async write(chunk: Buffer | string): Promise<void> {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.bytesWritten += buffer.length;
    if (this.batchBytes + buffer.length > BATCH_BYTES) await this.flush();
    if (buffer.length >= BATCH_BYTES) {
      // A piece as large as a batch goes out on its own, written before this resolves: a caller
      // may reuse the piece's memory once write() is done (the reader recycles its read chunks).
      await this.flush(buffer);
      await this.settle();
      return;
    }
    buffer.copy(this.batch, this.batchBytes);
    this.batchBytes += buffer.length;
  }

  /**
   * Starts writing the batch (or `whole`, a piece too large to batch) once the previous write is
   * done; resolves when that previous write is.
   */
  private async flush(whole?: Buffer): Promise<void> {
    await this.settle();
    if (!this.handle) return;
    let data: Buffer;
    if (whole) {
      data = whole;
    } else {
      if (this.batchBytes === 0) return;
      data = this.batch.subarray(0, this.batchBytes);
      // The next batch fills the buffer of the write just settled while this one is written.
      const next = this.spare ?? Buffer.allocUnsafe(BATCH_BYTES);
      this.spare = this.batch;
      this.batch = next;
      this.batchBytes = 0;
    }
    const handle = this.handle;
    const at = this.position;
    this.position += data.length;
    const written = (async () => {
      // write() may take fewer bytes than given (a full disk): write the rest, or let it throw.
      for (let offset = 0; offset < data.length;) offset += (await handle.write(data, offset, data.length - offset, at + offset)).bytesWritten;
    })();
    written.catch(() => undefined); // surfaced by the next settle()
    this.writing = written;
  }

  /** Waits for the write in flight; a failed write aborts the file and throws. */
  private async settle(): Promise<void> {
    const writing = this.writing;
    this.writing = undefined;
    if (!writing) return;
    try {
      await writing;
    } catch (error) {
      await this.abort();
      throw fromSystemError(error, this.path);
    }
  }

  /** Flushes and syncs the temp file (unless not durable), leaving it in place (for checks before commit). */
  async finish(): Promise<void> {
    await this.flush();
    await this.settle();
    if (!this.handle) return;
    try {
      await this.prefilling;
      if (this.durable) await this.handle.sync();
      await this.handle.close();
      this.handle = undefined;
    } catch (error) {
      await this.abort();
      throw fromSystemError(error, this.path);
    }
  }

  async commit(): Promise<void> {
    await this.finish();
    try {
      await rename(this.tempPath, this.path);
    } catch (error) {
      await this.abort();
      throw fromSystemError(error, this.path);
    }
  }

  async abort(): Promise<void> {
    const writing = this.writing;
    this.writing = undefined;
    await writing?.catch(() => undefined);
    await this.prefilling?.catch(() => undefined);
    await this.handle?.close().catch(() => {});
    this.handle = undefined;
    await unlink(this.tempPath).catch(() => {});
  }
}

/** Bytes copied at a time by prefill(). */
const PREFILL_CHUNK_BYTES = 8 * 1024 * 1024;

/** Copies the first `bytes` of `source` to the same offsets of `target`, reading the next piece while one is written. */
async function copyRange(source: string, target: FileHandle, bytes: number): Promise<void> {
  const input = await open(source, 'r');
  try {
    const chunks = [Buffer.allocUnsafe(Math.min(bytes, PREFILL_CHUNK_BYTES)), Buffer.allocUnsafe(Math.min(bytes, PREFILL_CHUNK_BYTES))];
    const readAt = (at: number, chunk: Buffer) => {
      const read = input.read(chunk, 0, Math.min(chunk.length, bytes - at), at);
      read.catch(() => undefined); // awaited at its turn
      return read;
    };
    let reading = readAt(0, chunks[0]);
    for (let at = 0, turn = 0; at < bytes; turn ^= 1) {
      const { bytesRead } = await reading;
      if (bytesRead === 0) throw new CmvError('CONFLICT', `${source} shrank while it was copied`, { hint: 'run the command again' });
      if (at + bytesRead < bytes) reading = readAt(at + bytesRead, chunks[turn ^ 1]);
      for (let done = 0; done < bytesRead;) done += (await target.write(chunks[turn], done, bytesRead - done, at + done)).bytesWritten;
      at += bytesRead;
    }
  } finally {
    await input.close();
  }
}

/**
 * Writes a file whole or not at all (a temp file, renamed). `durable` false: not synced first, for
 * a file that is checked when read and only costs work when lost (a cache); a crash may then leave
 * it empty or absent, never part of another.
 */
export async function writeFileAtomic(path: string, chunks: Chunks, mode = 0o600, durable = true): Promise<number> {
  const writer = await AtomicWriter.open(path, mode, durable);
  try {
    for await (const chunk of chunks) await writer.write(chunk);
    await writer.commit();
    return writer.bytesWritten;
  } catch (error) {
    await writer.abort();
    throw error;
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
