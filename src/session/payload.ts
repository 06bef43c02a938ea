// Lazy access to an entry's full record: the model keeps only shapes, and consumers that need
// the payload (texts, tool inputs, results) parse the one line they need, when they need it.

import { parseRecords } from './entry.js';
import type { SessionEntry } from './entry.js';
import type { Session } from './session.js';
import { CmvError } from '../errors.js';

export type JsonObject = Record<string, unknown>;

export function readRecord(session: Session, entry: SessionEntry): JsonObject {
  const bytes = session.lines[entry.line]?.bytes;
  if (!bytes) throw new CmvError('INTERNAL', 'session was opened without its raw bytes', { hint: 'open it with keepBytes' });
  const record = parseRecords(bytes)[entry.record];
  return record && typeof record === 'object' ? (record as JsonObject) : {};
}

export function contentBlocks(record: JsonObject): JsonObject[] {
  const content = (record.message as JsonObject | undefined)?.content;
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.filter((b): b is JsonObject => !!b && typeof b === 'object') : [];
}

export interface MessageText {
  role: 'user' | 'assistant';
  text: string;
  /** Where it came from, for reports. */
  uuid?: string;
  line: number;
}

/**
 * The user and assistant texts of the messages Claude Code sends on resume, in order: the words
 * a trim must keep verbatim. Tool results, thinking and images are not texts.
 */
export function sentTexts(session: Session): MessageText[] {
  const texts: MessageText[] = [];
  for (const entry of session.conversation.sentMessages) {
    if (!entry.blocks.some((b) => b.type === 'text')) continue;
    texts.push(...textsOfRecord(readRecord(session, entry), entry));
  }
  return texts;
}

/** The texts of one user or assistant record (see sentTexts). */
export function textsOfRecord(record: JsonObject, entry: SessionEntry): MessageText[] {
  const role = entry.type === 'assistant' ? 'assistant' : 'user';
  const texts: MessageText[] = [];
  for (const block of contentBlocks(record)) {
    if (block.type === 'text' && typeof block.text === 'string') texts.push({ role, text: block.text, uuid: entry.uuid, line: entry.line });
  }
  return texts;
}
