// Where the last compaction boundary of a log starts, found before the log is read: everything
// before it is dropped by a default trim, so pass 1 need not parse or strip those lines. A JSON
// string holds quotes escaped, so the bytes `"compact_boundary"` only occur as JSON structure;
// each candidate line is still checked to be a boundary entry (not, say, one nested in a
// progress line), and the trim checks the index agrees before relying on it.

import { open } from 'node:fs/promises';
import { parseLine } from '../session/entry.js';

const PATTERN = Buffer.from('"compact_boundary"');
const CHUNK = 1 << 20;

/** The byte offset of the last line that is a compact_boundary entry, or undefined. */
export async function lastBoundaryOffset(path: string, size: number): Promise<number | undefined> {
  const handle = await open(path, 'r');
  try {
    const readAt = async (start: number, end: number): Promise<Buffer> => {
      const bytes = Buffer.allocUnsafe(end - start);
      const { bytesRead } = await handle.read(bytes, 0, bytes.length, start);
      return bytes.subarray(0, bytesRead);
    };
    // Chunks from the end, each overlapping the next by the pattern's length.
    let end = size;
    while (end > 0) {
      const start = Math.max(0, end - CHUNK);
      const chunk = await readAt(start, Math.min(size, end + PATTERN.length - 1));
      for (let at = chunk.lastIndexOf(PATTERN); at >= 0; at = at > 0 ? chunk.lastIndexOf(PATTERN, at - 1) : -1) {
        const lineStart = await startOfLine(readAt, start + at);
        const lineEnd = await endOfLine(readAt, start + at, size);
        const parsed = parseLine(await readAt(lineStart, lineEnd), 0);
        const entry = parsed.status === 'entry' ? parsed.entries[0] : undefined;
        if (entry?.type === 'system' && entry.subtype === 'compact_boundary') return lineStart;
      }
      end = start;
    }
    return undefined;
  } finally {
    await handle.close();
  }
}

async function startOfLine(readAt: (s: number, e: number) => Promise<Buffer>, position: number): Promise<number> {
  for (let end = position; end > 0; ) {
    const start = Math.max(0, end - 64 * 1024);
    const newline = (await readAt(start, end)).lastIndexOf(0x0a);
    if (newline >= 0) return start + newline + 1;
    end = start;
  }
  return 0;
}

async function endOfLine(readAt: (s: number, e: number) => Promise<Buffer>, position: number, size: number): Promise<number> {
  for (let start = position; start < size; ) {
    const end = Math.min(size, start + 64 * 1024);
    const newline = (await readAt(start, end)).indexOf(0x0a);
    if (newline >= 0) return start + newline;
    start = end;
  }
  return size;
}
