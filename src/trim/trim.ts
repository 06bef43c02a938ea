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
import { addRecordTokens, newBreakdown, tokenBreakdown, toolNamesOf } from '../tokens/breakdown.js';
import { promptTokens } from '../tokens/usage.js';
import { stripMessageRecord, type StripContext } from './strip.js';
import { trimOptions, emptyCounts, type TrimOptions, type RemovalCounts } from './options.js';
import { digestText, verifyAgainst, type OriginalFacts, type VerifyReport } from './verify.js';
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
  /** The trimmed log, line by line (without newlines). */
  lines: Buffer[];
  /** The trimmed log as a session, for further analysis (budget eviction, reports). */
  trimmed: Session;
}

export interface TrimTarget {
  /** Rewrite every sessionId to this (the output becomes a new session). */
  newSessionId?: string;
  /** Tells whether a file on disk holds a text; defaults to never (inputs are then kept whole). */
  fileHolds?: (path: string, text: string) => boolean;
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
  /** Untouched lines keep their raw bytes. */
  bytes?: Buffer;
  /** Changed lines are re-serialised from their record. */
  record?: JsonObject;
}

function dropReason(entry: SessionEntry, boundaryLine: number, options: TrimOptions): keyof RemovalCounts | undefined {
  if (!options.keepHistory && entry.line < boundaryLine && !METADATA_TYPES.has(entry.type)) return 'linesBeforeBoundary';
  const byType = DROPPED_TYPES[entry.type];
  if (byType) return byType;
  if (entry.type === 'system' && entry.subtype && DROPPED_SYSTEM_SUBTYPES.has(entry.subtype)) return 'systemNoticeLines';
  return undefined;
}

export async function trimSession(path: string, overrides: Partial<TrimOptions> = {}, target: TrimTarget = {}): Promise<TrimResult> {
  const options = trimOptions(overrides);
  // Pass 1: index.
  const index = await openSession(path, { keepBytes: false, findSubagents: false });
  const c = index.conversation;
  const boundaryLine = c.compactBoundaries.length > 0 ? c.compactBoundaries[c.compactBoundaries.length - 1].line : -1;
  const sent = new Set(c.sentMessages);
  const lastResponse = [...c.responses].reverse().find((r) => r.usage && !r.synthetic && (!r.isSidechain || c.isSubagentTranscript));
  const usageLines = new Set(lastResponse?.entries ?? []);

  const counts = emptyCounts();
  const calls = new Map<string, ToolCall>();
  const ctx: StripContext = { options, counts, calls, fileHolds: target.fileHolds ?? (() => false) };
  const originalTexts: OriginalFacts['texts'] = [];
  const before = newBreakdown();
  const toolNames = new Map<string, string>();
  for (const pair of c.toolPairs) if (pair.name) toolNames.set(pair.id, pair.name);

  const droppedParent = new Map<string, string | null | undefined>();
  const items: OutputItem[] = [];
  const malformedLinesKept: number[] = [];

  // Pass 2: strip, streaming.
  let lineNo = 0;
  for await (const raw of readRawLines(path)) {
    const line = index.lines[lineNo++];
    if (line.status === 'blank') continue;
    if (line.status === 'malformed' || line.status === 'glued') {
      // Claude Code skips such a line whole; kept verbatim, it stays as harmless as it was.
      malformedLinesKept.push(line.index + 1);
      items.push({ bytes: raw.bytes });
      continue;
    }
    let records: unknown[] | undefined;
    const recordAt = (i: number): JsonObject => {
      records ??= parseRecords(raw.bytes);
      return records[i] as JsonObject;
    };
    for (const entry of line.entries) {
      const reason = dropReason(entry, boundaryLine, options);
      if (reason) {
        counts[reason]++;
        if (entry.uuid) droppedParent.set(entry.uuid, entry.parentUuid);
        continue;
      }
      const conversational = entry.type === 'user' || entry.type === 'assistant';
      const isSent = sent.has(entry);
      const mustChange =
        conversational &&
        (entry.toolUseResultChars > 0 ||
          entry.blocks.some((b) => b.type === 'thinking' || b.type === 'redacted_thinking' || b.type === 'tool_use' || b.type === 'tool_result' || b.type === 'image' || b.type === 'document'));
      if (!mustChange && !isSent) {
        items.push({ entry, bytes: raw.bytes });
        continue;
      }
      let record: JsonObject;
      const slim = mustChange && entry.toolUseResultChars > 0 && line.entries.length === 1 ? withoutTopLevelField(raw.bytes, 'toolUseResult') : undefined;
      if (slim) {
        // The sidecar is dropped before parsing: it is often most of the line, and never sent.
        record = JSON.parse(slim.toString('utf8')) as JsonObject;
        counts.toolUseResultSidecars++;
      } else {
        record = recordAt(entry.record);
      }
      if (isSent) {
        // Facts about the original, taken before stripping touches the record.
        for (const text of textsOfRecord(record, entry)) originalTexts.push(digestText(text));
        addRecordTokens(before, entry, record, toolNames);
      }
      if (!mustChange) {
        items.push({ entry, bytes: raw.bytes });
        continue;
      }
      const result = stripMessageRecord(record, ctx);
      if (result.emptied) {
        counts.emptiedLines++;
        if (entry.uuid) droppedParent.set(entry.uuid, entry.parentUuid);
        continue;
      }
      items.push(result.changed ? { entry, record } : { entry, bytes: raw.bytes });
    }
  }

  // Pass 3: repair the chain, then the figures Claude Code reads on resume.
  const resolveParent = (parent: string | null | undefined): string | null | undefined => {
    const seen = new Set<string>();
    while (typeof parent === 'string' && droppedParent.has(parent) && !seen.has(parent)) {
      seen.add(parent);
      parent = droppedParent.get(parent);
    }
    return parent;
  };
  const recordOf = (item: OutputItem): JsonObject => (item.record ??= parseRecords(item.bytes!)[item.entry?.record ?? 0] as JsonObject);
  const inheritedDangling = c.danglingParents.map((e) => e.uuid ?? '');
  for (const item of items) {
    const parent = item.entry?.parentUuid;
    if (typeof parent === 'string' && droppedParent.has(parent)) {
      const resolved = resolveParent(parent);
      recordOf(item).parentUuid = resolved === undefined ? null : resolved;
      counts.relinkedParents++;
      // A parent already lost before the file began (a partial log) stays lost: Claude Code
      // resumes that unchanged, while a null here could cut the chain.
      if (typeof resolved === 'string' && !c.byUuid.has(resolved) && item.entry?.uuid) inheritedDangling.push(item.entry.uuid);
    }
  }

  const afterTokensEstimate = (): number => {
    const after = newBreakdown();
    const names = toolNamesOf(index);
    for (const item of items) if (item.entry && sent.has(item.entry)) addRecordTokens(after, item.entry, recordOf(item), names);
    return after.total;
  };
  if (lastResponse?.usage && before.total > 0) {
    const removedTokens = before.total - afterTokensEstimate();
    if (removedTokens > 0) {
      const prompt = promptTokens(lastResponse.usage);
      const estimate = Math.max(0, prompt - removedTokens);
      for (const item of items) {
        if (!item.entry || !usageLines.has(item.entry)) continue;
        const message = recordOf(item).message as JsonObject | undefined;
        const usage = message?.usage as JsonObject | undefined;
        if (!usage) continue;
        // The trimmed prefix, all uncached: what the next call will send.
        usage.input_tokens = estimate;
        usage.cache_creation_input_tokens = 0;
        usage.cache_read_input_tokens = 0;
        if (usage.cache_creation && typeof usage.cache_creation === 'object') usage.cache_creation = { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 };
        counts.usageRewritten++;
      }
    }
  }

  const newSessionId = target.newSessionId;
  const outLines: Buffer[] = [];
  for (const item of items) {
    if (newSessionId && item.entry?.sessionId && item.entry.sessionId !== newSessionId) recordOf(item).sessionId = newSessionId;
    outLines.push(item.record ? Buffer.from(JSON.stringify(item.record)) : item.bytes!);
  }

  let trimmed = sessionOfLines(path, outLines);
  let budget: BudgetReport | undefined;
  if (options.budget !== undefined) {
    const eviction = evictToBudget(trimmed, options.budget);
    budget = eviction.report;
    if (eviction.changed.size > 0) {
      for (const [line, record] of eviction.changed) outLines[line] = Buffer.from(JSON.stringify(record));
      trimmed = sessionOfLines(path, outLines);
    }
  }
  const facts: OriginalFacts = {
    texts: originalTexts,
    malformedLines: malformedLinesKept.length,
    pairedToolIds: c.toolPairs.filter((p) => sent.has(p.use) || c.activePath.includes(p.use)).map((p) => p.id),
    unpairedToolIds: [...c.unpairedToolUses, ...c.unpairedToolResults].map((t) => t.id),
    danglingUuids: inheritedDangling,
  };
  const originalIds = new Set(c.entries.filter((e) => e.sessionId && !e.isSidechain).map((e) => e.sessionId));
  const verify = verifyAgainst(facts, trimmed, newSessionId ? 1 : originalIds.size);
  const afterTokens = tokenBreakdown(trimmed).total;
  const outBytes = outLines.reduce((n, l) => n + l.length + 1, 0);
  return {
    input: { path, bytes: index.bytes, tokens: before.total, lines: index.lines.length },
    output: { bytes: outBytes, tokens: afterTokens, lines: outLines.length, sessionId: newSessionId ?? trimmed.facts.sessionId },
    reduction: { tokens: fraction(before.total - afterTokens, before.total), bytes: fraction(index.bytes - outBytes, index.bytes) },
    removed: counts,
    malformedLinesKept,
    verify,
    budget,
    lines: outLines,
    trimmed,
  };
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
