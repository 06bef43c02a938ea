// Pass 1's output: every line as pass 1 left it (stripped or as it was), in file order, kept
// until pass 2 knows which to write. In memory for in-memory trims; otherwise in a scratch file
// beside the output, so memory stays bounded by the largest line.

import { openSync, readSync, closeSync } from 'node:fs';
import { readRawLines } from '../session/line-reader.js';
import { AtomicWriter } from '../session/write.js';

export interface Spill {
  /** True when append() copies the bytes it is given (the caller may then reuse their memory). */
  readonly copies: boolean;
  append(bytes: Buffer): Promise<void>;
  /** append() of each line in turn (one await for many lines kept in memory). */
  appendAll(lines: Buffer[]): Promise<void>;
  /** Done appending. */
  finish(): Promise<void>;
  /** The line appended as number `index`. */
  at(index: number): Buffer;
  lines(): AsyncIterable<Buffer>;
  dispose(): Promise<void>;
}

export function memorySpill(): Spill {
  const kept: Buffer[] = [];
  return {
    copies: false,
    append: async (bytes) => void kept.push(bytes),
    appendAll: async (lines) => {
      for (const bytes of lines) kept.push(bytes);
    },
    finish: async () => undefined,
    at: (index) => kept[index],
    lines: async function* () {
      yield* kept;
    },
    dispose: async () => void (kept.length = 0),
  };
}

const NEWLINE = Buffer.from('\n');

/** A spill file created at exactly `path` (one line per appended line); removed by dispose(). */
export async function fileSpill(path: string): Promise<Spill> {
  const writer = await AtomicWriter.openScratch(path);
  const offsets: number[] = [];
  const lengths: number[] = [];
  let fd: number | undefined;
  const append = async (bytes: Buffer): Promise<void> => {
    offsets.push(writer.bytesWritten);
    lengths.push(bytes.length);
    await writer.write(bytes);
    await writer.write(NEWLINE);
  };
  return {
    copies: true,
    append,
    appendAll: async (lines) => {
      for (const bytes of lines) await append(bytes);
    },
    finish: () => writer.finish(),
    at: (index) => {
      fd ??= openSync(path, 'r');
      const bytes = Buffer.allocUnsafe(lengths[index]);
      readSync(fd, bytes, 0, bytes.length, offsets[index]);
      return bytes;
    },
    lines: async function* () {
      for await (const raw of readRawLines(path)) yield raw.bytes;
    },
    dispose: async () => {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
      await writer.abort();
    },
  };
}
