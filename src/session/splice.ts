// A session model after a small edit (a few lines put in, a few rewritten), built from the model
// it came from: only the new and rewritten lines are parsed, so a large log is never parsed twice.

import { parseLine } from './entry.js';
import { sessionFromLines, type Session } from './session.js';
import type { SessionLine } from './conversation.js';

/** `session` with `inserted` put before its line `at`, and the lines in `rewritten` (by index) given new bytes. */
export function spliceSession(session: Session, at: number, inserted: Buffer[], rewritten: Map<number, Buffer> = new Map()): Session {
  if (at < 0 || at > session.lines.length || (at === session.lines.length && session.lines.at(-1)?.terminated === false)) {
    throw new RangeError(`cannot insert lines at ${at} of ${session.lines.length}`);
  }
  const lines: SessionLine[] = [];
  let offset = 0;
  const parsed = (bytes: Buffer, terminated: boolean): SessionLine => {
    const p = parseLine(bytes, lines.length);
    return { index: lines.length, offset, bytes, length: bytes.length, terminated, status: p.status, entries: p.entries, error: p.error };
  };
  const add = (line: SessionLine) => {
    lines.push(line);
    offset += line.length + (line.terminated ? 1 : 0);
  };
  session.lines.forEach((line, i) => {
    if (i === at) for (const bytes of inserted) add(parsed(bytes, true));
    const bytes = rewritten.get(i);
    if (bytes) add(parsed(bytes, line.terminated));
    else if (line.index === lines.length && line.offset === offset) add(line);
    else add({ ...line, index: lines.length, offset, entries: line.entries.map((e) => ({ ...e, line: lines.length })) });
  });
  if (at === session.lines.length) for (const bytes of inserted) add(parsed(bytes, true));
  return sessionFromLines(session.path, offset, lines, session.subagentFiles);
}
