// The three zones of a deterministic compaction, on the messages Claude Code would send: A, the
// last N messages, kept exactly; B, from the last real user prompt up to A, kept with tool output
// stubbed; C, everything older, replaced by the resume block.

import type { Session } from '../session/session.js';
import type { SessionEntry } from '../session/entry.js';
import { readRecord } from '../session/payload.js';
import { promptOf } from './session-turns.js';

/** One API message: consecutive sent entries of one role (Claude Code merges them so). */
export interface ApiMessage {
  role: 'user' | 'assistant';
  entries: SessionEntry[];
}

export interface Zones {
  messages: ApiMessage[];
  /** Sent entries of each zone, in order. */
  c: SessionEntry[];
  b: SessionEntry[];
  a: SessionEntry[];
  /** Messages in each zone (a message split between C and B counts in B). */
  counts: { c: number; b: number; a: number };
}

export function apiMessages(session: Session): ApiMessage[] {
  const messages: ApiMessage[] = [];
  for (const entry of session.conversation.sentMessages) {
    const role = entry.type === 'assistant' ? 'assistant' : 'user';
    const last = messages[messages.length - 1];
    if (last && last.role === role) last.entries.push(entry);
    else messages.push({ role, entries: [entry] });
  }
  return messages;
}

function hasToolResult(message: ApiMessage): boolean {
  return message.entries.some((e) => e.blocks.some((b) => b.type === 'tool_result'));
}

function isRealPrompt(session: Session, entry: SessionEntry): boolean {
  if (entry.type !== 'user' || entry.isMeta || entry.isCompactSummary || !entry.blocks.some((b) => b.type === 'text')) return false;
  return promptOf(readRecord(session, entry), entry.uuid ?? '') !== undefined;
}

export function findZones(session: Session, keep: number): Zones {
  const messages = apiMessages(session);
  let zoneA = Math.max(0, messages.length - keep);
  // Zone A never opens with tool results whose calls it would leave behind.
  while (zoneA > 0 && messages[zoneA].role === 'user' && hasToolResult(messages[zoneA])) zoneA--;
  let zoneB = zoneA;
  let promptAt = -1;
  for (let i = zoneA - 1; i >= 0 && promptAt < 0; i--) {
    if (messages[i].role !== 'user') continue;
    promptAt = messages[i].entries.findIndex((e) => isRealPrompt(session, e));
    if (promptAt >= 0) zoneB = i;
  }
  const flat = (list: ApiMessage[]) => list.flatMap((m) => m.entries);
  const c = flat(messages.slice(0, zoneB));
  const b = flat(messages.slice(zoneB, zoneA));
  // Tool results merged into the prompt's message answer calls in zone C: they go with them.
  if (zoneB < zoneA && promptAt > 0) c.push(...b.splice(0, promptAt));
  return { messages, c, b, a: flat(messages.slice(zoneA)), counts: { c: zoneB, b: zoneA - zoneB, a: messages.length - zoneA } };
}
