// Streams a file as physical lines of raw bytes. A line is everything up to (not including) a
// '\n'; the final line may lack one, and that fact is kept so a file can be written back exactly.

import { open } from 'node:fs/promises';
import { CmvError, fromSystemError } from '../errors.js';
import { notRegularFile, requireRegularFile } from './regular-file.js';

export interface RawLine {
  /** 0-based physical line number. */
  index: number;
  /** Byte offset of the line's first byte in the file. */
  offset: number;
  /** The line's bytes without its terminating '\n' (a '\r' before it stays part of the line). */
  bytes: Buffer;
  /** False only for a last line that has no '\n' after it. */
  terminated: boolean;
}

const CHUNK_BYTES = 4 * 1024 * 1024;
/**
 * No line longer than this is read: Claude Code's own lines stay far below it (an API request is
 * at most 32 MB), and past it a line could no longer be decoded as one string. Memory stays bounded
 * on a file that never breaks its line.
 */
export const MAX_LINE_BYTES = 256 * 1024 * 1024;
const NEWLINE = 0x0a;

export interface ReadOptions {
  chunkBytes?: number;
  /**
   * Read into two buffers in turn instead of a new one per chunk, so a long file costs no more
   * memory than a short one: a line's bytes are then valid only until the next line is asked for.
   */
  recycle?: boolean;
  /** Longest line accepted (MAX_LINE_BYTES); a longer one is refused with a clear error. */
  maxLineBytes?: number;
  /** Start at this byte offset, the start of line `index` (the caller knows the lines before it). */
  from?: { offset: number; index: number };
  /** Read no byte at or past this offset (a log's complete lines as they were, while it is appended to). */
  end?: number;
}

function lineTooLong(path: string, line: number, limit: number): CmvError {
  return new CmvError('BAD_INPUT', `line ${line} of ${path} is longer than ${Math.round(limit / 1024 / 1024)} MB: not a session log cmv can read`, {
    hint: 'a Claude Code log has no line this long; check that this is the right file',
  });
}

/**
 * Yields every physical line of a file. Lines are views into the chunks read (no copy), except a
 * line that spans chunks, which is joined once. An empty file yields nothing; a file ending in
 * '\n' yields no extra empty line.
 */
export async function* readRawLines(path: string, options: ReadOptions = {}): AsyncGenerator<RawLine> {
  for await (const batch of readRawLineBatches(path, options)) yield* batch;
}

/**
 * readRawLines a chunk at a time: the lines of each chunk read, in one array, so a caller that
 * works through a line synchronously is resumed once per chunk, not once per line. With `recycle`,
 * a batch's lines are valid until the next batch is asked for.
 */
export async function* readRawLineBatches(path: string, options: ReadOptions = {}): AsyncGenerator<RawLine[]> {
  const chunkBytes = options.chunkBytes ?? CHUNK_BYTES;
  const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  // A FIFO would block the open itself: refused before it.
  await requireRegularFile(path);
  // With `recycle`, the chunk read ahead goes into the buffer of the chunk before the current one,
  // whose lines have all been handed out (and, by contract, let go).
  const buffers = options.recycle ? [Buffer.allocUnsafe(chunkBytes), Buffer.allocUnsafe(chunkBytes)] : undefined;
  let reads = 0;
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw fromSystemError(error, path);
  }
  try {
    const refused = notRegularFile(await handle.stat(), path);
    if (refused) throw refused; // replaced between the check and the open
    let index = options.from?.index ?? 0;
    let fileOffset = options.from?.offset ?? 0; // offset of the first byte of `pending`
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    // The next chunk is read while the caller works through this one's lines.
    let position = fileOffset;
    const end = options.end ?? Infinity;
    const readChunk = (): Promise<{ chunk: Buffer; bytesRead: number }> => {
      const chunk = buffers ? buffers[reads++ % 2] : Buffer.allocUnsafe(chunkBytes);
      const at = position;
      position += chunkBytes;
      const length = Math.max(0, Math.min(chunkBytes, end - at));
      return length === 0 ? Promise.resolve({ chunk, bytesRead: 0 }) : handle.read(chunk, 0, length, at).then(({ bytesRead }) => ({ chunk, bytesRead }));
    };
    let next = readChunk();
    for (;;) {
      let chunk: Buffer;
      let bytesRead: number;
      try {
        ({ chunk, bytesRead } = await next);
      } catch (error) {
        throw fromSystemError(error, path);
      }
      if (bytesRead === 0) break;
      // A short read is the end of the file as it is now; a file still growing is read on.
      position -= chunkBytes - bytesRead;
      next = readChunk();
      next.catch(() => undefined); // awaited on the next round
      const data = bytesRead === chunkBytes ? chunk : chunk.subarray(0, bytesRead);
      const batch: RawLine[] = [];
      let start = 0;
      for (;;) {
        const end = data.indexOf(NEWLINE, start);
        if (end < 0) break;
        let bytes: Buffer;
        if (pendingBytes + end - start > maxLineBytes) throw lineTooLong(path, index + 1, maxLineBytes);
        if (pendingBytes > 0) {
          pending.push(data.subarray(start, end));
          bytes = Buffer.concat(pending, pendingBytes + end - start);
          pending = [];
          pendingBytes = 0;
        } else {
          bytes = data.subarray(start, end);
        }
        batch.push({ index: index++, offset: fileOffset, bytes, terminated: true });
        fileOffset += bytes.length + 1;
        start = end + 1;
      }
      if (batch.length > 0) yield batch;
      if (start < data.length) {
        // Copy the tail so the chunk it came from is not kept alive by a long line in the making.
        const tail = Buffer.from(data.subarray(start));
        if (pendingBytes + tail.length > maxLineBytes) throw lineTooLong(path, index + 1, maxLineBytes);
        pending.push(tail);
        pendingBytes += tail.length;
      }
    }
    if (pendingBytes > 0) {
      const bytes = pending.length === 1 ? pending[0] : Buffer.concat(pending, pendingBytes);
      yield [{ index, offset: fileOffset, bytes, terminated: false }];
    }
  } finally {
    await handle.close();
  }
}

/** Splits an in-memory buffer into physical lines, with the same rules as readRawLines. */
export function splitRawLines(data: Buffer): RawLine[] {
  const lines: RawLine[] = [];
  let start = 0;
  while (start < data.length) {
    const end = data.indexOf(NEWLINE, start);
    if (end < 0) {
      lines.push({ index: lines.length, offset: start, bytes: data.subarray(start), terminated: false });
      break;
    }
    lines.push({ index: lines.length, offset: start, bytes: data.subarray(start, end), terminated: true });
    start = end + 1;
  }
  return lines;
}
