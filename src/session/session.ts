// Opening a session log: stream its lines once, keep their raw bytes (so nothing is lost and an
// unmodified file writes back byte-identical), and build the conversation model on top.

import { readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { readRawLines } from './line-reader.js';
import { parseLine, isKnownEntryType, type SessionEntry } from './entry.js';
import { buildConversation, type Conversation, type SessionLine } from './conversation.js';
import type { ClientModel } from './clients.js';
import { CmvError } from '../errors.js';
import { requireRegularFile } from './regular-file.js';

export interface SubagentFile {
  path: string;
  agentId: string;
  layout: 'beside' | 'nested';
}

export interface SessionFacts {
  sessionId?: string;
  cwd?: string;
  versions: string[];
  models: string[];
  firstPrompt?: string;
  firstTimestamp?: string;
  lastTimestamp?: string;
  gitBranch?: string;
}

export interface Session {
  path: string;
  bytes: number;
  lines: SessionLine[];
  conversation: Conversation;
  facts: SessionFacts;
  malformedLines: number[];
  gluedLines: number[];
  /** Entry types this version of cmv does not know, with counts: kept, never dropped. */
  unknownTypes: Record<string, number>;
  subagentFiles: SubagentFile[];
}

export interface OpenOptions {
  /** Keep each line's raw bytes (default true). Without them the session can be analysed but not rewritten. */
  keepBytes?: boolean;
  /** Look for subagent transcripts beside the file (default true). */
  findSubagents?: boolean;
  /** The client whose resume the conversation model describes (default: DEFAULT_CLIENT). */
  client?: ClientModel;
}

/** The size of a log file; a missing file, a folder, a pipe or a device is the user's error, said plainly. */
export async function logSize(path: string): Promise<number> {
  return (await requireRegularFile(path)).size;
}

export async function openSession(path: string, options: OpenOptions = {}): Promise<Session> {
  const keepBytes = options.keepBytes ?? true;
  const size = await logSize(path);
  const lines: SessionLine[] = [];
  for await (const raw of readRawLines(path)) {
    const parsed = parseLine(raw.bytes, raw.index);
    lines.push({
      index: raw.index,
      offset: raw.offset,
      bytes: keepBytes ? raw.bytes : undefined,
      length: raw.bytes.length,
      terminated: raw.terminated,
      status: parsed.status,
      entries: parsed.entries,
      error: parsed.error,
    });
  }
  return sessionFromLines(path, size, lines, options.findSubagents === false ? [] : await findSubagentFiles(path), options.client);
}

/** The same session as another client resumes it: the lines are shared, the conversation model rebuilt. */
export function asResumedBy(session: Session, client: ClientModel): Session {
  if (session.conversation.client === client) return session;
  return { ...session, conversation: buildConversation(session.lines, { client, bytes: session.bytes, from: session.conversation }) };
}

/** Builds a Session from lines already read (used by openSession and by tests on in-memory data). */
export function sessionFromLines(path: string, bytes: number, lines: SessionLine[], subagentFiles: SubagentFile[] = [], client?: ClientModel): Session {
  const conversation = buildConversation(lines, { client, bytes });
  const unknownTypes: Record<string, number> = {};
  for (const entry of conversation.entries) {
    if (!isKnownEntryType(entry.type)) unknownTypes[entry.type] = (unknownTypes[entry.type] ?? 0) + 1;
  }
  return {
    path,
    bytes,
    lines,
    conversation,
    facts: readFacts(conversation.entries),
    malformedLines: lines.filter((l) => l.status === 'malformed').map((l) => l.index + 1),
    gluedLines: lines.filter((l) => l.status === 'glued').map((l) => l.index + 1),
    unknownTypes,
    subagentFiles,
  };
}

export function readFacts(entries: SessionEntry[]): SessionFacts {
  const versions: string[] = [];
  const models: string[] = [];
  const facts: SessionFacts = { versions, models };
  for (const entry of entries) {
    if (entry.sessionId && !facts.sessionId && !entry.isSidechain) facts.sessionId = entry.sessionId;
    if (entry.cwd && !facts.cwd) facts.cwd = entry.cwd;
    if (entry.gitBranch) facts.gitBranch = entry.gitBranch;
    if (entry.version && !versions.includes(entry.version)) versions.push(entry.version);
    if (entry.model && entry.model !== '<synthetic>' && !models.includes(entry.model)) models.push(entry.model);
    if (entry.timestamp) {
      facts.firstTimestamp ??= entry.timestamp;
      if (!facts.lastTimestamp || entry.timestamp > facts.lastTimestamp) facts.lastTimestamp = entry.timestamp;
    }
  }
  facts.sessionId ??= entries.find((e) => e.sessionId)?.sessionId;
  return facts;
}

/**
 * Subagent transcripts of a session, in the two file layouts: `agent-<id>.jsonl` beside the
 * session (2.0.x, matched by the sessionId inside) and `<sessionId>/subagents/agent-<id>.jsonl` (2.1.x).
 * The third layout, inline `isSidechain` entries, is part of the session itself.
 */
export async function findSubagentFiles(sessionPath: string): Promise<SubagentFile[]> {
  const dir = dirname(sessionPath);
  const name = basename(sessionPath, '.jsonl');
  if (name.startsWith('agent-')) return [];
  const found: SubagentFile[] = [];
  const nestedDir = join(dir, name, 'subagents');
  try {
    for (const file of (await readdir(nestedDir)).sort()) {
      if (file.startsWith('agent-') && file.endsWith('.jsonl')) {
        found.push({ path: join(nestedDir, file), agentId: file.slice(6, -6), layout: 'nested' });
      }
    }
  } catch {
    // no nested subagents folder
  }
  try {
    const besides = (await readdir(dir)).filter((f) => f.startsWith('agent-') && f.endsWith('.jsonl')).sort();
    for (const file of besides) {
      const path = join(dir, file);
      if ((await readFirstSessionId(path)) === name) found.push({ path, agentId: file.slice(6, -6), layout: 'beside' });
    }
  } catch {
    // unreadable folder: no beside-layout subagents
  }
  return found;
}

async function readFirstSessionId(path: string): Promise<string | undefined> {
  for await (const raw of readRawLines(path, { chunkBytes: 64 * 1024 })) {
    const parsed = parseLine(raw.bytes, raw.index);
    const id = parsed.entries.find((e) => e.sessionId)?.sessionId;
    if (id) return id;
    if (raw.index > 20) return undefined;
  }
  return undefined;
}

/** Re-assembles the file's bytes from its lines (lossless: every raw line and the final newline state). */
export function sessionBytes(session: Session): Buffer {
  const parts: Buffer[] = [];
  const newline = Buffer.from('\n');
  for (const line of session.lines) {
    if (!line.bytes) throw new CmvError('INTERNAL', 'session was opened without its raw bytes', { hint: 'open it with keepBytes' });
    parts.push(line.bytes);
    if (line.terminated) parts.push(newline);
  }
  return Buffer.concat(parts);
}
