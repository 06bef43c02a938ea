// The three-pass trim. Pass 1 indexes the log with the conversation model; pass 2 streams it
// again, copying untouched lines as raw bytes and stripping the rest; pass 3 repairs the chain,
// rewrites what must change (parents, usage, sessionId) and verifies the result before anyone
// writes it. Memory holds the index and the (small) output, never the input file.

import type { Session } from '../session/session.js';
import { openSession, sessionFromLines } from '../session/session.js';
import { readRawLines } from '../session/line-reader.js';
import { parseLine, parseRecords, type SessionEntry } from '../session/entry.js';
import { withoutTopLevelField } from '../session/skim.js';
import type { SessionLine } from '../session/conversation.js';
import { textsOfRecord, type JsonObject } from '../session/payload.js';
import { addRecordTokens, newBreakdown, toolNamesOf, type TokenBreakdown } from '../tokens/breakdown.js';
import { promptTokens } from '../tokens/usage.js';
import { stripMessageRecord, type StripContext } from './strip.js';
import { trimOptions, emptyCounts, type TrimOptions, type RemovalCounts } from './options.js';
import { digestText, verifyAgainst, type OriginalFacts, type VerifyReport, type TextDigest } from './verify.js';
import type { AtomicWriter } from '../session/write.js';
import { CmvError } from '../errors.js';
import type { ToolCall } from './stubs.js';
import { evictToBudget, type BudgetReport } from './budget.js';

export interface TrimResult {
  input: { path: string; bytes: number; tokens: number; lines: number };
  output: { bytes: number; tokens: number; lines: number; sessionId?: string };
  reduction: { tokens: number; bytes: number };
  removed: RemovalCounts;
  /** Lines that are not one JSON record, copied as they are (Claude Code skips them). */
  malformedLinesKept: number[];
  verify: VerifyReport;
  /** Present with --budget: what was evicted, and whether the budget was met. */
  budget?: BudgetReport;
  /** The trimmed log, line by line (without newlines); absent when it was streamed to a writer. */
  lines?: Buffer[];
  /** The trimmed log as a session; its lines carry bytes only when kept in memory. */
  trimmed: Session;
  /** The original as indexed in pass 1 (no bytes kept), for analyses that follow the trim. */
  index: Session;
  /**
   * Tokens of the messages Claude Code sends on resume, per entry of the original: as they were,
   * and as the trim leaves them (before any budget eviction). Counted once, here.
   */
  tokens: { before: TokenBreakdown; after: TokenBreakdown };
}

export interface TrimTarget {
  /** Rewrite every sessionId to this (the output becomes a new session). */
  newSessionId?: string;
  /** Tells whether a file on disk holds a text; defaults to never (inputs are then kept whole). */
  fileHolds?: (path: string, text: string) => boolean;
  /**
   * Stream the trimmed log into this writer, so memory stays bounded by the largest line; it is
   * finished (synced, not committed) before verification reads it back. Not with a budget.
   */
  writer?: AtomicWriter;
}

const DROPPED_TYPES: Record<string, keyof RemovalCounts> = {
  'file-history-snapshot': 'fileHistorySnapshots',
  'queue-operation': 'queueOperations',
  progress: 'progressLines',
};

/** System notices the API never sees. */
const DROPPED_SYSTEM_SUBTYPES = new Set(['turn_duration', 'stop_hook_summary', 'api_error']);

/** Metadata lines kept even before the last compaction boundary: titles and links, no content. */
const METADATA_TYPES = new Set(['summary', 'custom-title', 'tag', 'agent-name', 'pr-link', 'last-prompt']);

interface OutputItem {
  /** Absent for a line that is not one JSON record (copied verbatim). */
  entry?: SessionEntry;
  /** The line as it was. */
  bytes: Buffer;
  /** Present when the record must be re-serialised. */
  record?: JsonObject;
}

function dropReason(entry: SessionEntry, boundaryLine: number, options: TrimOptions): keyof RemovalCounts | undefined {
  if (!options.keepHistory && entry.line < boundaryLine && !METADATA_TYPES.has(entry.type)) return 'linesBeforeBoundary';
  const byType = DROPPED_TYPES[entry.type];
  if (byType) return byType;
  if (entry.type === 'system' && entry.subtype && DROPPED_SYSTEM_SUBTYPES.has(entry.subtype)) return 'systemNoticeLines';
  return undefined;
}

function needsStripping(entry: SessionEntry): boolean {
  if (entry.type !== 'user' && entry.type !== 'assistant') return false;
  return (
    entry.toolUseResultChars > 0 ||
    entry.blocks.some((b) => b.type === 'thinking' || b.type === 'redacted_thinking' || b.type === 'tool_use' || b.type === 'tool_result' || b.type === 'image' || b.type === 'document')
  );
}

/** Trims a log in memory: the result carries the trimmed lines. */
export function trimSession(path: string, overrides?: Partial<TrimOptions>, target?: TrimTarget & { writer?: undefined }): Promise<TrimResult & { lines: Buffer[] }>;
/** Trims a log into a writer (memory bounded by the largest line): the result carries no lines. */
export function trimSession(path: string, overrides: Partial<TrimOptions>, target: TrimTarget): Promise<TrimResult>;
export async function trimSession(path: string, overrides: Partial<TrimOptions> = {}, target: TrimTarget = {}): Promise<TrimResult> {
  const options = trimOptions(overrides);
  if (options.budget !== undefined && target.writer) {
    throw new CmvError('INTERNAL', 'a budget trim works on the output in memory', { hint: 'trim without a writer' });
  }
  // Pass 1: index.
  const index = await openSession(path, { keepBytes: false, findSubagents: false });
  const c = index.conversation;
  const boundaryLine = c.compactBoundaries.length > 0 ? c.compactBoundaries[c.compactBoundaries.length - 1].line : -1;
  const sent = new Set(c.sentMessages);
  const lastResponse = [...c.responses].reverse().find((r) => r.usage && !r.synthetic && (!r.isSidechain || c.isSubagentTranscript));
  const usageLines = new Set(lastResponse?.entries ?? []);

  const counts = emptyCounts();
  const ctx: StripContext = { options, counts, calls: new Map<string, ToolCall>(), fileHolds: target.fileHolds ?? (() => false) };
  const originalTexts: OriginalFacts['texts'] = [];
  const before = newBreakdown();
  const after = newBreakdown();
  const toolNames = toolNamesOf(index);
  const malformedLinesKept: number[] = [];
  const inheritedDangling = c.danglingParents.map((e) => e.uuid ?? '');
  const newSessionId = target.newSessionId;

  // Pass 3 runs as lines leave pass 2: a line is written once its parent is settled. Lines whose
  // parent comes later in the file, and the last response (whose usage depends on the whole
  // trim), wait in a queue, and so does everything after them, to keep the file's order.
  const droppedParent = new Map<string, string | null | undefined>();
  const seen = new Set<string>();
  const queue: OutputItem[] = [];
  const memory: Buffer[] | undefined = target.writer ? undefined : [];
  let outBytes = 0;
  let outLines = 0;

  const resolveParent = (parent: string | null | undefined): string | null | undefined => {
    const visited = new Set<string>();
    while (typeof parent === 'string' && droppedParent.has(parent) && !visited.has(parent)) {
      visited.add(parent);
      parent = droppedParent.get(parent);
    }
    return parent;
  };
  const recordOf = (item: OutputItem): JsonObject => (item.record ??= parseRecords(item.bytes)[item.entry?.record ?? 0] as JsonObject);
  const waits = (item: OutputItem): boolean => {
    if (!item.entry) return false;
    if (usageLines.has(item.entry)) return true;
    const parent = resolveParent(item.entry.parentUuid);
    return typeof parent === 'string' && c.byUuid.has(parent) && !seen.has(parent);
  };
  const emit = async (item: OutputItem): Promise<void> => {
    const entry = item.entry;
    if (entry) {
      const parent = entry.parentUuid;
      if (typeof parent === 'string' && droppedParent.has(parent)) {
        const resolved = resolveParent(parent);
        recordOf(item).parentUuid = resolved === undefined ? null : resolved;
        counts.relinkedParents++;
        // A parent already lost before the file began (a partial log) stays lost: Claude Code
        // resumes that unchanged, while a null here could cut the chain.
        if (typeof resolved === 'string' && !c.byUuid.has(resolved) && entry.uuid) inheritedDangling.push(entry.uuid);
      }
      if (newSessionId && entry.sessionId && entry.sessionId !== newSessionId) recordOf(item).sessionId = newSessionId;
    }
    const bytes = item.record ? Buffer.from(JSON.stringify(item.record)) : item.bytes;
    outBytes += bytes.length + 1;
    outLines++;
    if (memory) memory.push(bytes);
    else {
      await target.writer!.write(bytes);
      await target.writer!.write(NEWLINE);
    }
  };
  const push = async (item: OutputItem): Promise<void> => {
    if (queue.length > 0 || waits(item)) queue.push(item);
    else await emit(item);
  };

  // Pass 2: strip, streaming.
  let lineNo = 0;
  for await (const raw of readRawLines(path)) {
    const line = index.lines[lineNo++];
    if (line.status === 'blank') continue;
    if (line.status === 'malformed' || line.status === 'glued') {
      // Claude Code skips such a line whole; kept verbatim, it stays as harmless as it was.
      malformedLinesKept.push(line.index + 1);
      await push({ bytes: raw.bytes });
      continue;
    }
    let records: unknown[] | undefined;
    for (const entry of line.entries) {
      if (entry.uuid) seen.add(entry.uuid);
      const reason = dropReason(entry, boundaryLine, options);
      if (reason) {
        counts[reason]++;
        if (entry.uuid) droppedParent.set(entry.uuid, entry.parentUuid);
        continue;
      }
      const isSent = sent.has(entry);
      const mustChange = needsStripping(entry);
      if (!mustChange && !isSent) {
        await push({ entry, bytes: raw.bytes });
        continue;
      }
      let record: JsonObject;
      const slim = mustChange && entry.toolUseResultChars > 0 && line.entries.length === 1 ? withoutTopLevelField(raw.bytes, 'toolUseResult') : undefined;
      if (slim) {
        // The sidecar is dropped before parsing: it is often most of the line, and never sent.
        record = JSON.parse(slim.toString('utf8')) as JsonObject;
        counts.toolUseResultSidecars++;
      } else {
        records ??= parseRecords(raw.bytes);
        record = records[entry.record] as JsonObject;
      }
      if (isSent) {
        // Facts about the original, taken before stripping touches the record.
        for (const text of textsOfRecord(record, entry)) originalTexts.push(digestText(text));
        addRecordTokens(before, entry, record, toolNames);
      }
      const result = mustChange ? stripMessageRecord(record, ctx) : { changed: false, emptied: false };
      if (result.emptied) {
        counts.emptiedLines++;
        if (entry.uuid) droppedParent.set(entry.uuid, entry.parentUuid);
        continue;
      }
      if (isSent) addRecordTokens(after, entry, record, toolNames);
      await push(result.changed || slim ? { entry, bytes: raw.bytes, record } : { entry, bytes: raw.bytes });
    }
  }

  // The usage Claude Code reads on resume to decide whether to compact at once: the trimmed
  // prefix, all uncached, so a trimmed log does not look as full as its original.
  const removedTokens = before.total - after.total;
  if (lastResponse?.usage && removedTokens > 0) {
    const estimate = Math.max(0, promptTokens(lastResponse.usage) - removedTokens);
    for (const item of queue) {
      if (!item.entry || !usageLines.has(item.entry)) continue;
      const usage = (recordOf(item).message as JsonObject | undefined)?.usage as JsonObject | undefined;
      if (!usage) continue;
      usage.input_tokens = estimate;
      usage.cache_creation_input_tokens = 0;
      usage.cache_read_input_tokens = 0;
      if (usage.cache_creation && typeof usage.cache_creation === 'object') usage.cache_creation = { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 };
      counts.usageRewritten++;
    }
  }
  for (const item of queue) await emit(item);

  const facts: OriginalFacts = {
    texts: originalTexts,
    malformedLines: malformedLinesKept.length,
    pairedToolIds: c.toolPairs.filter((p) => sent.has(p.use) || c.activePath.includes(p.use)).map((p) => p.id),
    unpairedToolIds: [...c.unpairedToolUses, ...c.unpairedToolResults].map((t) => t.id),
    danglingUuids: inheritedDangling,
  };
  const originalIds = new Set(c.entries.filter((e) => e.sessionId && !e.isSidechain).map((e) => e.sessionId));
  const sessionIds = newSessionId ? 1 : originalIds.size;

  let trimmed: Session;
  let verify: VerifyReport;
  let budget: BudgetReport | undefined;
  let afterTokens = after.total;
  if (memory) {
    trimmed = sessionOfLines(path, memory);
    if (options.budget !== undefined) {
      const eviction = evictToBudget(trimmed, options.budget);
      budget = eviction.report;
      if (eviction.changed.size > 0) {
        for (const [lineIndex, record] of eviction.changed) memory[lineIndex] = Buffer.from(JSON.stringify(record));
        trimmed = sessionOfLines(path, memory);
        outBytes = memory.reduce((n, l) => n + l.length + 1, 0);
      }
      afterTokens = budget.tokensAfter;
    }
    verify = verifyAgainst(facts, trimmed, sessionIds);
  } else {
    // Read the written file back, as Claude Code will.
    await target.writer!.finish();
    trimmed = await openSession(target.writer!.tempPath, { keepBytes: false, findSubagents: false });
    verify = verifyAgainst(facts, trimmed, sessionIds, await streamedSentTexts(target.writer!.tempPath, trimmed));
  }
  return {
    input: { path, bytes: index.bytes, tokens: before.total, lines: index.lines.length },
    output: { bytes: outBytes, tokens: afterTokens, lines: outLines, sessionId: newSessionId ?? trimmed.facts.sessionId },
    reduction: { tokens: fraction(before.total - afterTokens, before.total), bytes: fraction(index.bytes - outBytes, index.bytes) },
    removed: counts,
    malformedLinesKept,
    verify,
    budget,
    lines: memory,
    trimmed,
    index,
    tokens: { before, after },
  };
}

const NEWLINE = Buffer.from('\n');

/** The sent texts of a session opened without its bytes, reading just the lines that hold them. */
async function streamedSentTexts(path: string, session: Session): Promise<TextDigest[]> {
  const wanted = new Map<number, SessionEntry[]>();
  for (const entry of session.conversation.sentMessages) {
    if (entry.type !== 'system' && !entry.blocks.some((b) => b.type === 'text')) continue;
    const list = wanted.get(entry.line);
    if (list) list.push(entry);
    else wanted.set(entry.line, [entry]);
  }
  const digests: TextDigest[] = [];
  for await (const raw of readRawLines(path)) {
    const entries = wanted.get(raw.index);
    if (!entries) continue;
    const records = parseRecords(raw.bytes);
    for (const entry of entries) for (const text of textsOfRecord(records[entry.record] as JsonObject, entry)) digests.push(digestText(text));
  }
  return digests;
}

function fraction(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 10000) / 10000 : 0;
}

/** Models the output lines as a session (in memory), so it can be verified before it is written. */
export function sessionOfLines(path: string, lines: Buffer[]): Session {
  const modelled: SessionLine[] = [];
  let offset = 0;
  lines.forEach((bytes, index) => {
    const parsed = parseLine(bytes, index);
    modelled.push({ index, offset, bytes, length: bytes.length, terminated: true, status: parsed.status, entries: parsed.entries, error: parsed.error });
    offset += bytes.length + 1;
  });
  return sessionFromLines(path, offset, modelled);
}
