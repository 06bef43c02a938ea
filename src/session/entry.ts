// Turns one physical line into what the conversation model needs to know about it: the entry's
// kind, its place in the parent chain, and the shape (not the payload) of its message content.

import { skimEntry } from './skim.js';
import { MESSAGE_ENTRY_TYPES, readDerived, readPreservedSegment, readUsage, withoutForeignMessage } from './usage-record.js';

export { MESSAGE_ENTRY_TYPES, readDerived, readPreservedSegment, readUsage, withoutForeignMessage };
import { shared } from './interned.js';
import { blankEntry, blockInfo } from './entry-shape.js';

export { blankEntry, blockInfo };

export const KNOWN_ENTRY_TYPES = [
  'user',
  'assistant',
  'system',
  'summary',
  'file-history-snapshot',
  'queue-operation',
  'progress',
  'attachment',
  'last-prompt',
  'pr-link',
  'custom-title',
  'agent-name',
  'tag',
  // Written by 2.1.50 to 2.1.237 (real logs) and 2.1.332 (harness): session state and records of
  // the requests sent, none of them part of the conversation the client sends on resume.
  'ai-title',
  'permission-mode',
  'mode',
  'bridge-session',
  'agent-setting',
  'agent-color',
  'relocated',
  'worktree-state',
  'frame-link',
  'content-replacement',
  'marble-origami-commit',
  'marble-origami-snapshot',
  'api-request',
  'api-request-blob',
  'api-request-shape',
  'atis-latch',
  'cost-state',
  'tools-used',
  'file-history-delta',
] as const;

const KNOWN = new Set<string>(KNOWN_ENTRY_TYPES);

export function isKnownEntryType(type: string): boolean {
  return KNOWN.has(type);
}

export interface Usage {
  inputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  outputTokens: number;
  /** Cache writes with the 5-minute TTL, when the log splits them. */
  cacheCreation5mTokens?: number;
  /** Cache writes with the 1-hour TTL, when the log splits them. */
  cacheCreation1hTokens?: number;
  /**
   * Calls the API made to another model within this response (the advisor tool's, iterations of
   * type `advisor_message`): billed at that model's prices, and left out of the figures above.
   */
  advisorCalls?: AdvisorUsage[];
}

export interface AdvisorUsage extends Omit<Usage, 'advisorCalls'> {
  /** The model the advisor ran on, when the log names it. */
  model?: string;
}

/** The shape of one content block: its kind, ids and size, never its payload. */
/** The top-level field cmv writes on the copied responses of a session it made (derived.ts). */
export const DERIVED_FIELD = 'cmvDerived';

/** What a line of a cmv-made copy says about the response it copies. */
export interface DerivedFacts {
  /** Session id of the log the copy was made from. */
  from?: string;
  by?: string;
  /** The response's ids and usage in the original. */
  messageId?: string;
  requestId?: string;
  usage?: Usage;
}

export interface BlockInfo {
  type: string;
  /** tool_use: its id; tool_result: the tool_use_id it answers. */
  toolId?: string;
  /** tool_use: the tool's name. */
  name?: string;
  isError?: boolean;
  /** Characters of payload (text, thinking, JSON input, result content). */
  chars: number;
  /** text blocks: true when the text is only whitespace (Claude Code drops such blocks on resume). */
  blank?: boolean;
  /** tool_result blocks: the result holds tool_reference blocks (a ToolSearch that loaded tool schemas). */
  loadsTools?: boolean;
}

export interface SessionEntry {
  /** 0-based physical line this entry came from. */
  line: number;
  /** Position within a glued line (0 for ordinary lines). */
  record: number;
  type: string;
  subtype?: string;
  uuid?: string;
  /** undefined when the field is absent; null when the log says null (a chain root). */
  parentUuid?: string | null;
  logicalParentUuid?: string;
  sessionId?: string;
  timestamp?: string;
  version?: string;
  cwd?: string;
  gitBranch?: string;
  isSidechain: boolean;
  agentId?: string;
  isMeta: boolean;
  isCompactSummary: boolean;
  isVisibleInTranscriptOnly: boolean;
  isApiErrorMessage: boolean;
  role?: string;
  messageId?: string;
  requestId?: string;
  model?: string;
  usage?: Usage;
  /** Present on the copied responses of a session cmv made: the original's ids and usage. */
  derived?: DerivedFacts;
  /** Message content blocks; a string content is one 'text' block with contentIsString set. */
  blocks: BlockInfo[];
  contentIsString: boolean;
  /** Characters of the toolUseResult sidecar (0 when absent). */
  toolUseResultChars: number;
  /** summary lines: the uuid of the message they summarise. */
  leafUuid?: string;
  /** compact_boundary lines: the messages from before the boundary the client keeps after the summary. */
  preservedSegment?: PreservedSegment;
}

/** compactMetadata.preservedSegment of a compact_boundary (2.1.1xx on): ids of a chain kept across /compact. */
export interface PreservedSegment {
  headUuid: string;
  anchorUuid: string;
  tailUuid: string;
}

export type LineStatus = 'entry' | 'blank' | 'malformed' | 'glued';

export interface ParsedLine {
  status: LineStatus;
  entries: SessionEntry[];
  /** For malformed lines: what JSON.parse said. */
  error?: string;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * Approximate serialised size of a JSON value without serialising it (strings are summed, not
 * copied): the reader runs this on every payload, so it must not allocate.
 */
export function jsonChars(value: unknown, depth = 0): number {
  switch (typeof value) {
    case 'string':
      return value.length;
    case 'number':
    case 'boolean':
      return 5;
    case 'object': {
      if (value === null) return 4;
      if (depth > 64) return 0;
      let total = 2;
      if (Array.isArray(value)) {
        for (const item of value) total += jsonChars(item, depth + 1) + 1;
      } else {
        for (const key in value as Record<string, unknown>) {
          total += key.length + 3 + jsonChars((value as Record<string, unknown>)[key], depth + 1);
        }
      }
      return total;
    }
    default:
      return 0;
  }
}

/** Payload size of a block, counted the way the API would see its text. */
function blockChars(block: Record<string, unknown>): number {
  switch (block.type) {
    case 'text':
      return str(block.text)?.length ?? 0;
    case 'thinking':
      return str(block.thinking)?.length ?? 0;
    case 'redacted_thinking':
      return str(block.data)?.length ?? 0;
    case 'tool_use':
    case 'server_tool_use':
      return jsonChars(block.input);
    case 'tool_result':
      return jsonChars(block.content);
    case 'image':
    case 'document':
      return str((block.source as Record<string, unknown> | undefined)?.data)?.length ?? 0;
    default:
      return jsonChars(block);
  }
}

function readBlocks(content: unknown): { blocks: BlockInfo[]; contentIsString: boolean } {
  if (typeof content === 'string') {
    const info = blockInfo('text', content.length);
    info.blank = content.trim() === '';
    return { blocks: [info], contentIsString: true };
  }
  if (!Array.isArray(content)) return { blocks: [], contentIsString: false };
  const blocks: BlockInfo[] = [];
  for (const item of content) {
    if (!item || typeof item !== 'object') continue;
    const block = item as Record<string, unknown>;
    const type = shared(block.type) ?? 'unknown';
    const info = blockInfo(type, blockChars(block));
    if (type === 'text') info.blank = typeof block.text !== 'string' || block.text.trim() === '';
    if (type === 'tool_use' || type === 'server_tool_use') {
      info.toolId = str(block.id);
      info.name = shared(block.name);
    } else if (type === 'tool_result' || type.endsWith('_tool_result')) {
      info.toolId = str(block.tool_use_id);
      if (block.is_error === true) info.isError = true;
      if (Array.isArray(block.content) && block.content.some((c) => !!c && typeof c === 'object' && (c as Record<string, unknown>).type === 'tool_reference')) info.loadsTools = true;
    }
    blocks.push(info);
  }
  return { blocks, contentIsString: false };
}

/** Builds the entry summary of one parsed JSON record. */
export function toEntry(value: unknown, line: number, record: number): SessionEntry | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const o = value as Record<string, unknown>;
  const message = o.message && typeof o.message === 'object' ? (o.message as Record<string, unknown>) : undefined;
  const { blocks, contentIsString } = readBlocks(message?.content);
  const parent = o.parentUuid;
  return withoutForeignMessage({
    line,
    record,
    type: shared(o.type) ?? 'unknown',
    subtype: shared(o.subtype),
    uuid: str(o.uuid),
    parentUuid: parent === null ? null : str(parent),
    logicalParentUuid: str(o.logicalParentUuid),
    sessionId: shared(o.sessionId),
    timestamp: str(o.timestamp),
    version: shared(o.version),
    cwd: shared(o.cwd),
    gitBranch: shared(o.gitBranch),
    isSidechain: o.isSidechain === true,
    agentId: shared(o.agentId),
    isMeta: o.isMeta === true,
    isCompactSummary: o.isCompactSummary === true,
    isVisibleInTranscriptOnly: o.isVisibleInTranscriptOnly === true,
    isApiErrorMessage: o.isApiErrorMessage === true,
    role: shared(message?.role),
    messageId: str(message?.id),
    requestId: str(o.requestId),
    model: shared(message?.model),
    usage: readUsage(message?.usage),
    derived: o.cmvDerived === undefined ? undefined : readDerived(o.cmvDerived),
    blocks,
    contentIsString,
    toolUseResultChars: o.toolUseResult === undefined ? 0 : jsonChars(o.toolUseResult),
    leafUuid: str(o.leafUuid),
    preservedSegment: readPreservedSegment(o.compactMetadata),
  });
}

/**
 * Finds where each top-level JSON value in `text` ends, for lines holding several records glued
 * together. Returns undefined when the text is not a plain sequence of objects/arrays.
 */
export function splitGluedRecords(text: string): string[] | undefined {
  const parts: string[] = [];
  let depth = 0;
  let inString = false;
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) {
      if (depth === 0) return undefined;
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (depth === 0) start = i;
      depth++;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
      if (depth < 0) return undefined;
      if (depth === 0) parts.push(text.slice(start, i + 1));
    } else if (depth === 0 && c !== 0x20 && c !== 0x09 && c !== 0x0d) {
      return undefined;
    }
  }
  return depth === 0 && parts.length > 1 ? parts : undefined;
}

const SKIM_MIN_BYTES = 2048;

/** Parses one physical line. Never throws. */
export function parseLine(bytes: Buffer, line: number): ParsedLine {
  if (bytes.length === 0) return { status: 'blank', entries: [] };
  // Long lines are skimmed (their payload never decoded); short ones parse as fast with JSON.parse.
  const skimmed = bytes.length >= SKIM_MIN_BYTES ? skimEntry(bytes, line) : undefined;
  if (skimmed) return { status: 'entry', entries: [skimmed] };
  const text = bytes.toString('utf8');
  if (text.trim() === '') return { status: 'blank', entries: [] };
  try {
    const entry = toEntry(JSON.parse(text), line, 0);
    return entry ? { status: 'entry', entries: [entry] } : { status: 'malformed', entries: [], error: 'not a JSON object' };
  } catch (error) {
    const parts = splitGluedRecords(text);
    if (parts) {
      try {
        const entries = parts.map((part, i) => toEntry(JSON.parse(part), line, i));
        if (entries.every((e): e is SessionEntry => e !== undefined)) return { status: 'glued', entries };
      } catch {
        // fall through: malformed
      }
    }
    return { status: 'malformed', entries: [], error: (error as Error).message };
  }
}

/** Parses one line to its full JSON value(s), for consumers that need the payload. */
export function parseRecords(bytes: Buffer): unknown[] {
  const text = bytes.toString('utf8');
  try {
    return [JSON.parse(text)];
  } catch {
    const parts = splitGluedRecords(text);
    if (!parts) return [];
    try {
      return parts.map((part) => JSON.parse(part));
    } catch {
      return [];
    }
  }
}
