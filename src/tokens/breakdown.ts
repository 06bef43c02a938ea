// Where the tokens of a session go: the messages Claude Code would send on resume, counted by
// kind of content and by the tool whose results they are.

import type { Session } from '../session/session.js';
import type { SessionEntry } from '../session/entry.js';
import { readRecord, contentBlocks, type JsonObject } from '../session/payload.js';
import { countTokens } from './counter.js';
import { imageTokens } from './image.js';
import { jsonText } from './json-text.js';

export type TokenKind = 'userText' | 'assistantText' | 'thinking' | 'toolUseInput' | 'toolResult' | 'image';

export interface TokenBreakdown {
  total: number;
  byKind: Record<TokenKind, number>;
  byTool: Record<string, number>;
  /** Tokens of each sent entry, in order (for calibration against the log's usage). */
  perEntry: { entry: SessionEntry; tokens: number }[];
}

export function emptyByKind(): Record<TokenKind, number> {
  return { userText: 0, assistantText: 0, thinking: 0, toolUseInput: 0, toolResult: 0, image: 0 };
}

function imageData(block: JsonObject): string | undefined {
  const source = block.source as JsonObject | undefined;
  return typeof source?.data === 'string' ? source.data : undefined;
}

/** Counts the tokens of one text of a record, told its kind (and a result's tool): countTokens, or an estimate of it (estimate.ts). */
export type TextCounter = (text: string, kind: TokenKind, tool?: string) => number;

const exactly: TextCounter = (text) => countTokens(text);

/** Tokens of a tool_result's content: text parts as text, image parts by their size. */
export function toolResultTokens(content: unknown, count: TextCounter = exactly, tool?: string): { text: number; image: number } {
  if (typeof content === 'string') return { text: count(content, 'toolResult', tool), image: 0 };
  let text = 0;
  let image = 0;
  if (Array.isArray(content)) {
    for (const part of content as JsonObject[]) {
      if (!part || typeof part !== 'object') continue;
      if (part.type === 'text' && typeof part.text === 'string') text += count(part.text, 'toolResult', tool);
      else if (part.type === 'image') image += imageTokens(imageData(part));
      else text += count(jsonText(part), 'toolResult', tool);
    }
  }
  return { text, image };
}

export function newBreakdown(): TokenBreakdown {
  return { total: 0, byKind: emptyByKind(), byTool: {}, perEntry: [] };
}

/** Tool names by tool_use id, for attributing results to their tool. */
export function toolNamesOf(session: Session): Map<string, string> {
  const names = new Map<string, string>();
  for (const pair of session.conversation.toolPairs) if (pair.name) names.set(pair.id, pair.name);
  return names;
}

/** Tool names by tool_use id. */
export interface ToolNames {
  get(id: string): string | undefined;
}

/** Tokens of one sent record, by kind and by the tool whose results they are. */
export interface RecordTokens {
  total: number;
  byKind: Record<TokenKind, number>;
  byTool: Record<string, number>;
}

/** Counts one sent record (user, assistant or local command output). */
export function recordTokens(isAssistant: boolean, record: JsonObject, toolNames: ToolNames, count: TextCounter = exactly): RecordTokens {
  const counted: RecordTokens = { total: 0, byKind: emptyByKind(), byTool: {} };
  const add = (kind: TokenKind, n: number) => {
    counted.byKind[kind] += n;
    counted.total += n;
  };
  // Local command output is a system line that Claude Code sends as user text.
  const blocks = record.type === 'system' ? (typeof record.content === 'string' ? [{ type: 'text', text: record.content }] : []) : contentBlocks(record);
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        add(isAssistant ? 'assistantText' : 'userText', count(typeof block.text === 'string' ? block.text : '', isAssistant ? 'assistantText' : 'userText'));
        break;
      case 'thinking':
        add('thinking', count(typeof block.thinking === 'string' ? block.thinking : '', 'thinking'));
        break;
      case 'redacted_thinking':
        add('thinking', count(typeof block.data === 'string' ? block.data : '', 'thinking'));
        break;
      case 'tool_use':
      case 'server_tool_use':
        add('toolUseInput', count(jsonText(block.input ?? {}), 'toolUseInput'));
        break;
      case 'tool_result': {
        const name = toolNames.get(String(block.tool_use_id)) ?? 'unknown';
        const { text, image } = toolResultTokens(block.content, count, name);
        add('toolResult', text);
        add('image', image);
        counted.byTool[name] = (counted.byTool[name] ?? 0) + text + image;
        break;
      }
      case 'image':
        add('image', imageTokens(imageData(block)));
        break;
      default:
        add(isAssistant ? 'assistantText' : 'userText', count(jsonText(block), isAssistant ? 'assistantText' : 'userText'));
    }
  }
  return counted;
}

/** Adds counted tokens of one entry to a breakdown. */
export function addCounted(into: TokenBreakdown, entry: SessionEntry, counted: RecordTokens): void {
  for (const kind of Object.keys(counted.byKind) as TokenKind[]) into.byKind[kind] += counted.byKind[kind];
  for (const [tool, n] of Object.entries(counted.byTool)) into.byTool[tool] = (into.byTool[tool] ?? 0) + n;
  into.total += counted.total;
  into.perEntry.push({ entry, tokens: counted.total });
}

/** Adds the tokens of one sent record (user, assistant or local command output) to a breakdown. */
export function addRecordTokens(into: TokenBreakdown, entry: SessionEntry, record: JsonObject, toolNames: ToolNames): number {
  const counted = recordTokens(entry.type === 'assistant', record, toolNames);
  addCounted(into, entry, counted);
  return counted.total;
}

export function tokenBreakdown(session: Session, entries: SessionEntry[] = session.conversation.sentMessages): TokenBreakdown {
  const breakdown = newBreakdown();
  const toolNames = toolNamesOf(session);
  for (const entry of entries) addRecordTokens(breakdown, entry, readRecord(session, entry), toolNames);
  return breakdown;
}
