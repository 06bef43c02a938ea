// Sessions cmv makes from others (trim, branch, compact outputs) say so in their own lines, so that
// no tool books the original's spend to the copy: each copied API response gets fresh ids and zero
// usage, and keeps what it was in a `cmvDerived` field that Claude Code ignores.
//
// Why this shape: ccusage and cmv count a response once by message id + request id, the first file
// seen winning; a copy keeping the original's ids would win as often as not (files tie on their
// first timestamp), and one keeping its usage under new ids would be counted again. Zero usage under
// new ids is a response that costs nothing, whatever order a tool reads the files in. Claude Code
// (2.1.100 and 2.1.332, proved in test/e2e/derived-copy.e2e.test.ts) sends the same request for the
// copy: it merges a split response's lines by message id (rewritten alike for all of them) and sends
// neither ids nor usage; its resumed context estimate starts at zero until the first new response.

import { DERIVED_FIELD } from './entry.js';
import type { JsonObject } from './payload.js';

export { DERIVED_FIELD };

export type DerivedBy = 'trim' | 'branch' | 'compact';

/** How a copy is being made: by what, from which session, and the tag its fresh ids carry. */
export interface DerivedMark {
  by: DerivedBy;
  from?: string;
  /** Short and unique per copy (from the new session id): two copies of one original never share ids. */
  tag: string;
}

export function derivedTag(sessionId: string): string {
  return sessionId.replace(/-/g, '').slice(0, 12);
}

function zeroUsage(usage: JsonObject): JsonObject {
  const zero: JsonObject = { ...usage };
  for (const key of ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens']) if (key in zero || key === 'input_tokens' || key === 'output_tokens') zero[key] = 0;
  if (zero.cache_creation && typeof zero.cache_creation === 'object') zero.cache_creation = { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 };
  // The advisor's tokens live only in the iterations (usage-record.ts): a copy claims none of them either.
  if (Array.isArray(zero.iterations)) zero.iterations = (zero.iterations as unknown[]).map((it) => (it && typeof it === 'object' ? zeroUsage(it as JsonObject) : it));
  if (zero.server_tool_use && typeof zero.server_tool_use === 'object') {
    zero.server_tool_use = Object.fromEntries(Object.entries(zero.server_tool_use as JsonObject).map(([k, v]) => [k, typeof v === 'number' ? 0 : v]));
  }
  return zero;
}

function freshId(id: string, tag: string): string {
  // A copy of a copy: the tag of the earlier copy gives way to this one's.
  const base = id.replace(/_cmv[0-9a-f]+$/, '');
  return `${base}_cmv${tag}`;
}

/**
 * Marks one record as a copy when it carries an API response's usage (in place; returns whether
 * it changed). A record already marked keeps its original ids and usage and gets this copy's ids.
 */
export function deriveRecord(record: JsonObject, mark: DerivedMark): boolean {
  const message = record.message as JsonObject | undefined;
  const usage = message && typeof message === 'object' ? (message.usage as JsonObject | undefined) : undefined;
  if (!usage || typeof usage !== 'object') return false;
  const earlier = record[DERIVED_FIELD] as JsonObject | undefined;
  const original: JsonObject =
    earlier && typeof earlier === 'object' ? { messageId: earlier.messageId, requestId: earlier.requestId, usage: earlier.usage } : { messageId: message!.id, requestId: record.requestId, usage };
  if (typeof message!.id === 'string') message!.id = freshId(message!.id, mark.tag);
  if (typeof record.requestId === 'string') record.requestId = freshId(record.requestId, mark.tag);
  message!.usage = zeroUsage(usage);
  record[DERIVED_FIELD] = { from: mark.from, by: mark.by, ...original };
  return true;
}

/** A line of a copy as it should be written: the same bytes unless it carries a response's usage. */
export function deriveLine(bytes: Buffer, mark: DerivedMark): Buffer {
  // Only assistant lines carry usage; most lines are left as they are without a parse.
  if (bytes.indexOf('"usage"') < 0) return bytes;
  let record: unknown;
  try {
    record = JSON.parse(bytes.toString('utf8'));
  } catch {
    return bytes; // a glued or broken line is copied as it is
  }
  if (!record || typeof record !== 'object' || Array.isArray(record)) return bytes;
  return deriveRecord(record as JsonObject, mark) ? Buffer.from(JSON.stringify(record)) : bytes;
}
