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

/** The text parts of a message's or tool result's content, joined by newlines (a string is its own text). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((p): p is JsonObject => !!p && typeof p === 'object' && (p as JsonObject).type === 'text' && typeof (p as JsonObject).text === 'string')
    .map((p) => p.text as string)
    .join('\n');
}

export interface MessageText {
  role: 'user' | 'assistant';
  text: string;
  /** Text the client adds on resume from what the line holds (2.1.332's "Tool loaded."), not words of the log. */
  clientAdded?: boolean;
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
  const { client } = session.conversation;
  for (const entry of session.conversation.sentMessages) {
    if (entry.type === 'system' || entry.blocks.some((b) => b.type === 'text')) texts.push(...textsOfRecord(readRecord(session, entry), entry));
    // 2.1.332 ('tool-loaded-text'): a ToolSearch result that loaded tools is followed by this text.
    if (client.toolLoadedText && entry.blocks.some((b) => b.loadsTools)) texts.push({ role: 'user', text: 'Tool loaded.', clientAdded: true, uuid: entry.uuid, line: entry.line });
  }
  return texts;
}

/** The texts of one user or assistant record (see sentTexts). */
export function textsOfRecord(record: JsonObject, entry: SessionEntry): MessageText[] {
  const role = entry.type === 'assistant' ? 'assistant' : 'user';
  // Local command output is a system line that Claude Code sends as user text.
  if (record.type === 'system') {
    return typeof record.content === 'string' && record.content.trim() !== '' ? [{ role, text: record.content, uuid: entry.uuid, line: entry.line }] : [];
  }
  const texts: MessageText[] = [];
  for (const block of contentBlocks(record)) {
    // Whitespace-only texts are dropped by Claude Code on resume: nothing to keep.
    if (block.type === 'text' && typeof block.text === 'string' && block.text.trim() !== '') texts.push({ role, text: block.text, uuid: entry.uuid, line: entry.line });
  }
  return texts;
}
