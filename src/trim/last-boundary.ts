// Where the last compaction of a log starts, found before the log is read: everything before it
// is dropped by a default trim, so pass 1 need not parse or strip those lines. A JSON string
// holds quotes escaped, so the bytes searched for only occur as JSON structure; each candidate
// line is still checked to be a compaction (not, say, a record nested in a progress line), and
// the trim checks the index agrees before relying on it.

import { open } from 'node:fs/promises';
import { parseLine, type SessionEntry } from '../session/entry.js';
import type { Conversation } from '../session/conversation.js';

/** 2.x writes a compact_boundary line; 1.0.x started a new chain with the summary itself. */
const PATTERNS = [Buffer.from('"compact_boundary"'), Buffer.from('"isCompactSummary":true')];
const CHUNK = 1 << 20;

/**
 * Where what Claude Code resumes after a compaction starts: a compact_boundary line, or (1.0.x)
 * a compaction summary that roots a new chain. Lines before the last one are never sent.
 */
function isCompactionStart(entry: SessionEntry): boolean {
  if (entry.type === 'system' && entry.subtype === 'compact_boundary') return true;
  return entry.type === 'user' && entry.isCompactSummary && entry.parentUuid === null && !entry.isSidechain;
}

/**
 * The line of the last compaction start at or before the first line of the resumed path, or -1:
 * what precedes it is never sent, and dropping it leaves the leaf, its chain and the client's
 * fallbacks by time as they were. Chosen from the leaf Claude Code resumes (the newest entry, the
 * first in file order on a tie), which may lie before a later boundary in file order.
 */
export function resumedCompactionLine(c: Conversation): number {
  let first = Infinity;
  for (const entry of c.activePath) first = Math.min(first, entry.line);
  let line = -1;
  for (const entry of c.entries) if (entry.line <= first && entry.line > line && isCompactionStart(entry)) line = entry.line;
  return line;
}

/** The byte offset of the last line that starts a compaction, or undefined. */
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
      const overlap = Math.max(...PATTERNS.map((p) => p.length)) - 1;
      const chunk = await readAt(start, Math.min(size, end + overlap));
      // Candidates from the end of the chunk backwards, whichever pattern they match.
      const found = (from: number) => Math.max(...PATTERNS.map((p) => (from < 0 ? -1 : chunk.lastIndexOf(p, from))));
      for (let at = found(chunk.length); at >= 0; at = found(at - 1)) {
        const lineStart = await startOfLine(readAt, start + at);
        const lineEnd = await endOfLine(readAt, start + at, size);
        const parsed = parseLine(await readAt(lineStart, lineEnd), 0);
        if (parsed.status === 'entry' && isCompactionStart(parsed.entries[0])) return lineStart;
      }
      end = start;
    }
    return undefined;
  } finally {
    await handle.close();
  }
}

async function startOfLine(readAt: (s: number, e: number) => Promise<Buffer>, position: number): Promise<number> {
  for (let end = position; end > 0;) {
    const start = Math.max(0, end - 64 * 1024);
    const newline = (await readAt(start, end)).lastIndexOf(0x0a);
    if (newline >= 0) return start + newline + 1;
    end = start;
  }
  return 0;
}

async function endOfLine(readAt: (s: number, e: number) => Promise<Buffer>, position: number, size: number): Promise<number> {
  for (let start = position; start < size;) {
    const end = Math.min(size, start + 64 * 1024);
    const newline = (await readAt(start, end)).indexOf(0x0a);
    if (newline >= 0) return start + newline;
    start = end;
  }
  return size;
}
