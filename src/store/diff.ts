// `cmv diff <a> <b>`: what changed between two snapshots. Messages are matched by uuid (a branch
// keeps the uuids of what it kept), so the diff says which were added, removed or rewritten
// (stubbed by a trim), with the token delta, the files the later one newly touched, and the
// session graph's diff (nodes added, removed, status changed) from the graphs stored beside them.

import type { Store } from './store.js';
import { resolveSnapshot } from './refs.js';
import { readLog } from './objects.js';
import { readMeta } from './read-meta.js';
import { sessionOfBuffer } from './session-facts.js';
import type { Session } from '../session/session.js';
import type { SessionEntry } from '../session/entry.js';
import { contentBlocks, readRecord, textsOfRecord } from '../session/payload.js';
import { tokenBreakdown } from '../tokens/breakdown.js';
import { graphOrRebuilt, readStoredGraphs, type GraphSource } from './stored-graph.js';
import { diffGraphs, type GraphDiff } from '../graph/diff-graphs.js';

export interface MessageSummary {
  uuid: string;
  role: 'user' | 'assistant';
  timestamp?: string;
  /** The message's first text, or what it holds instead (tool calls, results). */
  text: string;
}

export interface SnapshotDiff {
  a: { id: string; name: string };
  b: { id: string; name: string };
  messages: { added: MessageSummary[]; removed: MessageSummary[]; changed: MessageSummary[]; unchanged: number };
  /** Tokens of what Claude Code would send on resume (local tokenizer). */
  tokens: { a: number; b: number; delta: number };
  /** Context size the API last reported. */
  contextTokens: { a: number; b: number; delta: number };
  lines: { a: number; b: number };
  bytes: { a: number; b: number };
  files: { newlyRead: string[]; newlyChanged: string[] };
  /** The session graph's diff; `source` says whether each graph was stored or rebuilt from its log. */
  graph: GraphDiff & { source: { a: GraphSource; b: GraphSource } };
}

function clip(text: string, n = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > n ? `${flat.slice(0, n - 1)}…` : flat;
}

function summary(session: Session, entry: SessionEntry): MessageSummary {
  const record = readRecord(session, entry);
  const texts = textsOfRecord(record, entry);
  let text = texts[0]?.text;
  if (text === undefined) {
    const blocks = contentBlocks(record);
    const tools = blocks.filter((b) => b.type === 'tool_use').map((b) => String(b.name));
    if (tools.length) text = `[tool call: ${tools.join(', ')}]`;
    else if (blocks.some((b) => b.type === 'tool_result')) text = '[tool result]';
    else if (blocks.some((b) => b.type === 'thinking' || b.type === 'redacted_thinking')) text = '[thinking]';
    else text = `[${blocks.map((b) => String(b.type)).join(', ') || 'empty'}]`;
  }
  return { uuid: entry.uuid!, role: entry.type === 'assistant' ? 'assistant' : 'user', timestamp: entry.timestamp, text: clip(text) };
}

function messages(session: Session): Map<string, SessionEntry> {
  const byUuid = new Map<string, SessionEntry>();
  for (const entry of session.conversation.entries) {
    if ((entry.type === 'user' || entry.type === 'assistant') && entry.uuid && !entry.isSidechain) byUuid.set(entry.uuid, entry);
  }
  return byUuid;
}

/** The payload of a message without the fields a branch rewrites (sessionId, parent links). */
function payloadOf(session: Session, entry: SessionEntry): string {
  const { message } = readRecord(session, entry);
  return JSON.stringify(message ?? null);
}

export function diffSessions(a: Session, b: Session): Pick<SnapshotDiff, 'messages'> {
  const before = messages(a);
  const after = messages(b);
  const added: MessageSummary[] = [];
  const removed: MessageSummary[] = [];
  const changed: MessageSummary[] = [];
  let unchanged = 0;
  for (const [uuid, entry] of after) {
    const old = before.get(uuid);
    if (!old) added.push(summary(b, entry));
    else if (payloadOf(a, old) !== payloadOf(b, entry)) changed.push(summary(b, entry));
    else unchanged++;
  }
  for (const [uuid, entry] of before) if (!after.has(uuid)) removed.push(summary(a, entry));
  return { messages: { added, removed, changed, unchanged } };
}

export async function diffSnapshots(store: Store, argA: string, argB: string): Promise<SnapshotDiff> {
  const [ra, rb] = await Promise.all([resolveSnapshot(store, argA), resolveSnapshot(store, argB)]);
  const [metaA, metaB, logA, logB, stored] = await Promise.all([
    readMeta(store, ra.id),
    readMeta(store, rb.id),
    readLog(store.git, ra.id),
    readLog(store.git, rb.id),
    readStoredGraphs(store, [ra.id, rb.id]),
  ]);
  const a = sessionOfBuffer(metaA.source.path, logA);
  const b = sessionOfBuffer(metaB.source.path, logB);
  const graphA = graphOrRebuilt(stored.get(ra.id), () => a);
  const graphB = graphOrRebuilt(stored.get(rb.id), () => b);
  const tokensA = tokenBreakdown(a).total;
  const tokensB = tokenBreakdown(b).total;
  const readBefore = new Set([...metaA.facts.files.read, ...metaA.facts.files.changed]);
  const changedBefore = new Set(metaA.facts.files.changed);
  return {
    a: { id: ra.id, name: ra.named?.name ?? metaA.name },
    b: { id: rb.id, name: rb.named?.name ?? metaB.name },
    ...diffSessions(a, b),
    tokens: { a: tokensA, b: tokensB, delta: tokensB - tokensA },
    contextTokens: { a: metaA.facts.tokens.context, b: metaB.facts.tokens.context, delta: metaB.facts.tokens.context - metaA.facts.tokens.context },
    lines: { a: metaA.facts.lines, b: metaB.facts.lines },
    bytes: { a: logA.length, b: logB.length },
    files: {
      newlyRead: metaB.facts.files.read.filter((f) => !readBefore.has(f)),
      newlyChanged: metaB.facts.files.changed.filter((f) => !changedBefore.has(f)),
    },
    graph: { ...diffGraphs(graphA.graph, graphB.graph), source: { a: graphA.source, b: graphB.source } },
  };
}
