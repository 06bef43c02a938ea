// Giving a log a new session id without trimming it (`cmv branch --no-trim`): every record's
// top-level `sessionId` changes, every other byte stays as it was.

const NEWLINE = 0x0a;
const KEY = Buffer.from('"sessionId":');

function occurrences(line: Buffer, needle: Buffer): number {
  let count = 0;
  for (let i = line.indexOf(needle); i >= 0; i = line.indexOf(needle, i + 1)) count++;
  return count;
}

function rewriteLine(line: Buffer, sessionId: string): Buffer {
  if (line.indexOf(KEY) < 0) return line;
  let record: unknown;
  try {
    record = JSON.parse(line.toString('utf8'));
  } catch {
    return line; // not one JSON record: Claude Code skips it, and so does this
  }
  if (!record || typeof record !== 'object' || Array.isArray(record)) return line;
  const old = (record as Record<string, unknown>).sessionId;
  if (typeof old !== 'string' || old === sessionId) return line;
  const from = Buffer.from(`"sessionId":${JSON.stringify(old)}`);
  // One occurrence is the top-level key itself: swap its bytes. Otherwise nested records carry
  // the id too, and re-serialising is the only way to be sure which one changes.
  if (occurrences(line, from) === 1) {
    const at = line.indexOf(from);
    return Buffer.concat([line.subarray(0, at), Buffer.from(`"sessionId":${JSON.stringify(sessionId)}`), line.subarray(at + from.length)]);
  }
  (record as Record<string, unknown>).sessionId = sessionId;
  return Buffer.from(JSON.stringify(record));
}

/** The log with each record's top-level sessionId set to `sessionId`; other lines byte for byte. */
export function withSessionId(data: Buffer, sessionId: string): Buffer {
  const parts: Buffer[] = [];
  let start = 0;
  while (start < data.length) {
    const nl = data.indexOf(NEWLINE, start);
    const end = nl < 0 ? data.length : nl;
    parts.push(rewriteLine(data.subarray(start, end), sessionId));
    if (nl >= 0) parts.push(data.subarray(nl, nl + 1));
    start = end + 1;
  }
  return Buffer.concat(parts);
}
