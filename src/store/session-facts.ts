// What a snapshot records about its session, from the conversation model: counts, the API's own
// token figures and the files the session read or changed. The figures add up, so a snapshot
// of a grown log models only the lines appended since its parent and adds them to the parent's.

import { createHash } from 'node:crypto';
import type { Session } from '../session/session.js';
import { readFacts, sessionFromLines } from '../session/session.js';
import { splitRawLines, type RawLine } from '../session/line-reader.js';
import { parseLine, parseRecords, type ParsedLine, type SessionEntry } from '../session/entry.js';
import { chainOnlyOf, skimEntry } from '../session/skim.js';
import { historyLine } from '../trim/history-chain.js';
import { groupResponses, isConversational, type Conversation, type SessionLine } from '../session/conversation.js';
import { contentBlocks, type JsonObject } from '../session/payload.js';
import { CmvError } from '../errors.js';
import { billedResponses, summariseUsage } from '../tokens/usage.js';
import { isCleanAbsolutePath } from './meta.js';

export interface SessionFactsSummary {
  lines: number;
  bytes: number;
  /** False when the last line had no '\n' yet (Claude Code was writing it). */
  terminated: boolean;
  entries: number;
  userPrompts: number;
  userEntries: number;
  assistantEntries: number;
  toolCalls: number;
  compactions: number;
  malformedLines: number;
  sessionId?: string;
  cwd?: string;
  gitBranch?: string;
  versions: string[];
  models: string[];
  firstTimestamp?: string;
  lastTimestamp?: string;
  tokens: {
    /** Prompt size of the last main-chain API call: the context the session had reached. */
    context: number;
    apiCalls: number;
    input: number;
    output: number;
    cacheRead: number;
    cacheWrite: number;
  };
  files: { read: string[]; changed: string[] };
  /**
   * The API responses at the end of the log (and, for a part about to be appended, at its start),
   * so a response whose lines straddle the seam between two snapshots counts once.
   */
  edges: { first?: EdgeResponse[]; last: EdgeResponse[] };
}

/** One API response's usage, as the summary counted it (the largest of its lines). */
export interface EdgeResponse {
  /** The response's identity, compacted (see edgeKey): meta.json keeps a few per snapshot. */
  key: string;
  /** On the main chain: its prompt size is the context figure. */
  main: boolean;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

const EDGE_SIZE = 4;

/**
 * A response key as meta.json keeps it: 16 base64url characters of its sha1 instead of the
 * message and request ids (~60 characters that no two snapshots share, so they were most of what
 * a snapshot's meta.json added to the store). Keys stored whole by earlier versions (they hold
 * NUL separators, which a compact key never does) are compacted when read, so they still match.
 */
export function edgeKey(key: string): string {
  return /^[A-Za-z0-9_-]{16}$/.test(key) ? key : createHash('sha1').update(key).digest('base64url').slice(0, 16);
}

function size(r: EdgeResponse): number {
  return r.input + r.output + r.cacheRead + r.cacheWrite;
}

const READ_TOOLS = new Set(['Read', 'NotebookRead']);
const CHANGE_TOOLS = new Set(['Edit', 'MultiEdit', 'Write', 'NotebookEdit']);

/** What the facts are read from: a session, or the lighter model of factsModelOf. */
export interface FactsSource {
  bytes: number;
  lines: SessionLine[];
  malformedLines: number[];
  facts: Session['facts'];
  conversation: Pick<Conversation, 'entries' | 'responses' | 'isSubagentTranscript' | 'compactBoundaries'>;
}

/**
 * A log held in memory modelled for its facts only: its records and API responses, as
 * sessionOfBuffer has them, without the resume model (the resumed path, tool pairs, chains) that
 * the facts do not read. A long log's snapshot costs its parse, not its conversation model.
 */
export function factsModelOf(data: Buffer, lines: SessionLine[] = linesOf(data)): FactsSource {
  const entries: SessionEntry[] = [];
  for (const line of lines) if (line.status !== 'glued') entries.push(...line.entries);
  const mainConversational = entries.some((e) => isConversational(e) && e.uuid && !e.isSidechain);
  return {
    bytes: data.length,
    lines,
    malformedLines: lines.filter((l) => l.status === 'malformed').map((l) => l.index + 1),
    facts: readFacts(entries),
    conversation: {
      entries,
      responses: groupResponses(entries).responses,
      isSubagentTranscript: !mainConversational && entries.some((e) => isConversational(e) && e.isSidechain),
      compactBoundaries: entries.filter((e) => e.type === 'system' && e.subtype === 'compact_boundary'),
    },
  };
}

function linesOf(data: Buffer): SessionLine[] {
  return splitRawLines(data).map((raw) => lineOf(raw, parseLine(raw.bytes, raw.index)));
}

function lineOf(raw: RawLine, parsed: ParsedLine): SessionLine {
  return { index: raw.index, offset: raw.offset, bytes: raw.bytes, length: raw.bytes.length, terminated: raw.terminated, status: parsed.status, entries: parsed.entries, error: parsed.error };
}

/** Models a log held in memory (a snapshot, or the part of a log appended since the last one). */
export function sessionOfBuffer(path: string, data: Buffer): Session {
  return sessionFromLines(path, data.length, linesOf(data));
}

function touchedFiles(session: FactsSource): { read: string[]; changed: string[] } {
  const read = new Set<string>();
  const changed = new Set<string>();
  for (const entry of session.conversation.entries) {
    if (!entry.blocks.some((b) => b.type === 'tool_use' && b.name && (READ_TOOLS.has(b.name) || CHANGE_TOOLS.has(b.name)))) continue;
    for (const block of contentBlocks(recordOf(session, entry))) {
      if (block.type !== 'tool_use' || typeof block.name !== 'string') continue;
      const input = (block.input ?? {}) as JsonObject;
      const path = typeof input.file_path === 'string' ? input.file_path : typeof input.notebook_path === 'string' ? input.notebook_path : undefined;
      if (!path) continue;
      if (READ_TOOLS.has(block.name)) read.add(path);
      else if (CHANGE_TOOLS.has(block.name)) changed.add(path);
    }
  }
  return { read: [...read].sort(), changed: [...changed].sort() };
}

/** The record of an entry, from its line's bytes (as readRecord reads a session's). */
function recordOf(source: FactsSource, entry: SessionEntry): JsonObject {
  const bytes = source.lines[entry.line]?.bytes;
  if (!bytes) throw new CmvError('INTERNAL', 'the log was modelled without its raw bytes', { hint: 'model it with its bytes' });
  const record = parseRecords(bytes)[entry.record];
  return record && typeof record === 'object' ? (record as JsonObject) : {};
}

/** Facts as a snapshot stores them: the start-of-log edge only matters to a part being appended. */
export function storedFacts(facts: SessionFactsSummary): SessionFactsSummary {
  return { ...facts, edges: { last: facts.edges.last } };
}

/**
 * Asks factsOfParts for the chain of the log's history as a trim that copies it as it is reads
 * it (historyLine), made from the same read of those lines as their facts: the PreCompact hook's
 * trim then need not read the history a second time.
 */
export interface ChainRequest {
  /** The history: the lines before this byte offset of the log (where a line starts). */
  bytes: number;
  /**
   * Called once, as soon as the history's lines are read (before what follows is modelled), with
   * them (their bytes left out, numbered and placed in the whole log); undefined when the parts do
   * not start at the log's start or no line ends at `bytes`.
   */
  give: (lines: SessionLine[] | undefined) => void;
}

/** The facts of each [start, end) byte range of a log, each modelled apart (and the history's chain, when asked). */
export function factsOfParts(data: Buffer, parts: [number, number][], chain?: ChainRequest): SessionFactsSummary[] {
  if (!chain) return parts.map(([start, end]) => factsOf(factsModelOf(data.subarray(start, end))));
  const history: SessionLine[] = [];
  let given = false;
  const give = (whole: boolean) => {
    if (given) return;
    given = true;
    chain.give(whole ? history : undefined);
  };
  if (parts.length === 0 || parts[0][0] !== 0) give(false);
  // Every part's lines are read before any part is modelled, so the chain goes as soon as the
  // history's last line is read, not after the history is modelled.
  let before = 0; // lines of the parts before this one
  const read = parts.map(([start, end]) => {
    const part = data.subarray(start, end);
    const raws = splitRawLines(part);
    const lines = raws.map((raw) => {
      const offset = start + raw.offset;
      if (!given && offset >= chain.bytes) give(offset === chain.bytes);
      if (given) return lineOf(raw, parseLine(raw.bytes, raw.index));
      // Read whole once (blocks not measured: the facts read no block's size), for the line's
      // facts and its chain entry as historyLine would read it.
      const index = before + raw.index;
      const whole = skimEntry(raw.bytes, raw.index, false, false);
      if (whole) {
        history.push({ index, offset, length: raw.bytes.length, terminated: raw.terminated, status: 'entry', entries: [chainOnlyOf(whole, index)], error: undefined });
        return lineOf(raw, { status: 'entry', entries: [whole] });
      }
      history.push(historyLine({ ...raw, index, offset }));
      return lineOf(raw, parseLine(raw.bytes, raw.index));
    });
    before += raws.length;
    return { part, lines };
  });
  const last = history[history.length - 1];
  give(!!last && last.terminated && last.offset + last.length + 1 === chain.bytes);
  return read.map(({ part, lines }) => factsOf(factsModelOf(part, lines)));
}

/** The facts of a modelled log. */
export function factsOf(session: FactsSource): SessionFactsSummary {
  const c = session.conversation;
  const usage = summariseUsage(c);
  const last = session.lines[session.lines.length - 1];
  let userPrompts = 0;
  let userEntries = 0;
  let assistantEntries = 0;
  let toolCalls = 0;
  for (const entry of c.entries) {
    if (entry.type === 'user') {
      userEntries++;
      if (!entry.isMeta && !entry.isCompactSummary && entry.blocks.some((b) => b.type === 'text' && !b.blank)) userPrompts++;
    } else if (entry.type === 'assistant') assistantEntries++;
    toolCalls += entry.blocks.filter((b) => b.type === 'tool_use').length;
  }
  return {
    lines: session.lines.length,
    bytes: session.bytes,
    terminated: last ? last.terminated : true,
    entries: c.entries.length,
    userPrompts,
    userEntries,
    assistantEntries,
    toolCalls,
    compactions: c.compactBoundaries.length,
    malformedLines: session.malformedLines.length,
    sessionId: session.facts.sessionId,
    // A cwd the log gives that is not a clean absolute path could steer a branch's write: not kept.
    cwd: isCleanAbsolutePath(session.facts.cwd) ? session.facts.cwd : undefined,
    gitBranch: session.facts.gitBranch,
    versions: session.facts.versions,
    models: session.facts.models,
    firstTimestamp: session.facts.firstTimestamp,
    lastTimestamp: session.facts.lastTimestamp,
    tokens: {
      context: usage.lastContextTokens,
      apiCalls: usage.apiCalls,
      input: usage.inputTokens,
      output: usage.outputTokens,
      cacheRead: usage.cacheReadTokens,
      cacheWrite: usage.cacheWriteTokens,
    },
    files: touchedFiles(session),
    edges: edgesOf(session),
  };
}

function edgesOf(session: FactsSource): SessionFactsSummary['edges'] {
  const c = session.conversation;
  const billed: EdgeResponse[] = billedResponses(c).map((r) => ({
    key: edgeKey(r.key),
    main: !r.isSidechain || c.isSubagentTranscript,
    input: r.usage!.inputTokens,
    output: r.usage!.outputTokens,
    cacheRead: r.usage!.cacheReadTokens,
    cacheWrite: r.usage!.cacheCreationTokens,
  }));
  return { first: billed.slice(0, EDGE_SIZE), last: billed.slice(-EDGE_SIZE) };
}

const union = (a: string[], b: string[]) => [...new Set([...a, ...b])];

/**
 * The facts of a log that is `before` with the lines of `appended` added. An API response whose
 * lines lie on both sides of the seam is one call: the two halves' counts are replaced by the
 * larger of their usages, as the whole log's model would count it.
 */
export function appendFacts(before: SessionFactsSummary, appended: SessionFactsSummary): SessionFactsSummary {
  const tokens = {
    context: appended.tokens.apiCalls > 0 && appended.tokens.context > 0 ? appended.tokens.context : before.tokens.context,
    apiCalls: before.tokens.apiCalls + appended.tokens.apiCalls,
    input: before.tokens.input + appended.tokens.input,
    output: before.tokens.output + appended.tokens.output,
    cacheRead: before.tokens.cacheRead + appended.tokens.cacheRead,
    cacheWrite: before.tokens.cacheWrite + appended.tokens.cacheWrite,
  };
  // Only the parent's stored facts may hold keys of an earlier version; `appended` comes from factsOf.
  const beforeLast = before.edges.last.map((r) => ({ ...r, key: edgeKey(r.key) }));
  const tail = new Map(beforeLast.map((r) => [r.key, r]));
  const merged = new Map<string, EdgeResponse>();
  for (const next of appended.edges.first ?? []) {
    const prior = tail.get(next.key);
    if (!prior) continue;
    const kept = size(next) >= size(prior) ? next : prior;
    tokens.apiCalls--;
    tokens.input += kept.input - prior.input - next.input;
    tokens.output += kept.output - prior.output - next.output;
    tokens.cacheRead += kept.cacheRead - prior.cacheRead - next.cacheRead;
    tokens.cacheWrite += kept.cacheWrite - prior.cacheWrite - next.cacheWrite;
    merged.set(next.key, kept);
  }
  const lastMain = [...appended.edges.last].reverse().find((r) => r.main);
  if (lastMain && merged.has(lastMain.key)) {
    const kept = merged.get(lastMain.key)!;
    tokens.context = kept.input + kept.cacheRead + kept.cacheWrite;
  }
  const combined = [...beforeLast.filter((r) => !merged.has(r.key)), ...appended.edges.last.map((r) => merged.get(r.key) ?? r)];
  return {
    lines: before.lines + appended.lines,
    bytes: before.bytes + appended.bytes,
    terminated: appended.lines > 0 ? appended.terminated : before.terminated,
    entries: before.entries + appended.entries,
    userPrompts: before.userPrompts + appended.userPrompts,
    userEntries: before.userEntries + appended.userEntries,
    assistantEntries: before.assistantEntries + appended.assistantEntries,
    toolCalls: before.toolCalls + appended.toolCalls,
    compactions: before.compactions + appended.compactions,
    malformedLines: before.malformedLines + appended.malformedLines,
    sessionId: before.sessionId ?? appended.sessionId,
    cwd: before.cwd ?? appended.cwd,
    gitBranch: appended.gitBranch ?? before.gitBranch,
    versions: union(before.versions, appended.versions),
    models: union(before.models, appended.models),
    firstTimestamp: before.firstTimestamp ?? appended.firstTimestamp,
    lastTimestamp: appended.lastTimestamp ?? before.lastTimestamp,
    tokens,
    files: { read: union(before.files.read, appended.files.read).sort(), changed: union(before.files.changed, appended.files.changed).sort() },
    edges: { last: combined.slice(-EDGE_SIZE) },
  };
}
