// Pass 1 of the trim: every line is parsed once, indexed for the conversation model and stripped
// at once, and the lines as they may be written go to a spill. What only the whole log can decide
// (the resumed path, the chain repairs, the usage Claude Code reads) waits for pass 2.

import { readRawLineBatches, type RawLine } from '../session/line-reader.js';
import { skimEntry } from '../session/skim.js';
import { parseLine, toEntry, type ParsedLine, type SessionEntry } from '../session/entry.js';
import type { SessionLine } from '../session/conversation.js';
import { contentBlocks, contentText, textsOfRecord, type JsonObject } from '../session/payload.js';
import { stripMessageRecord, type StripContext } from './strip.js';
import { emptyCounts, type TrimOptions, type RemovalCounts } from './options.js';
import { digestText, type TextDigest } from './verify.js';
import type { ToolCall } from './stubs.js';
import { WrittenTexts } from './written-texts.js';
import { SHORTENED_TODO_MARK, todosOf } from './todo-lists.js';
import type { Spill } from './spill.js';
import { DroppedHistory } from './dropped-history.js';
import { HistoryChanged, historyLine, type HistoryChain, type HistoryReader } from './history-chain.js';
import { noteEditCalls, type EditCallSeen } from './applied-edits.js';
import { noteSupersedableCalls, type SupersedableCall } from './superseded.js';
import { SupersededInputs } from './superseded-inputs.js';
import { recordTokens, type RecordTokens } from '../tokens/breakdown.js';
import { jsonText } from '../tokens/json-text.js';
import { estimatingCounter, StrippedRecordCounter } from '../tokens/estimate.js';

/**
 * Line types Claude Code never sends on resume, dropped whole. The client reads none of them back
 * into the request (each checked in the real client: the resume request is identical without it).
 */
const DROPPED_TYPES: Record<string, keyof RemovalCounts> = {
  'file-history-snapshot': 'fileHistorySnapshots',
  'queue-operation': 'queueOperations',
  progress: 'progressLines',
  // 2.1.332 records each API request it sends (a third of a typical log's bytes); the resume
  // request of a harness session was identical with all of them dropped.
  'api-request': 'recordedRequestLines',
  'api-request-blob': 'recordedRequestLines',
  'api-request-shape': 'recordedRequestLines',
  // 2.1.332 bookkeeping (cost so far, tools used, a latch, file-history deltas): same evidence.
  'atis-latch': 'clientBookkeepingLines',
  'cost-state': 'clientBookkeepingLines',
  'tools-used': 'clientBookkeepingLines',
  'file-history-delta': 'clientBookkeepingLines',
};

/** System notices the API never sees. */
const DROPPED_SYSTEM_SUBTYPES = new Set(['turn_duration', 'stop_hook_summary', 'api_error']);

/** What pass 1 left for one spilled line. */
interface SpilledLine {
  /** Absent for a line that is not one JSON record (copied verbatim). */
  entry?: SessionEntry;
  /** The spilled bytes differ from the original line. */
  changed: boolean;
  /** What stripping this line removed, rules that did not apply left out (counted only if the line is written). */
  removed?: Partial<RemovalCounts>;
}

export interface PassOneResult {
  /** Every line of the log, without its bytes, bar those `dropped` stands for. */
  lines: SessionLine[];
  /** Lines read, all of them. */
  lineCount: number;
  /** With `chainOnlyBeforeBoundary`: the lines before the boundary, dropped unread and not in `lines`. */
  dropped?: DroppedHistory;
  /** One per spilled line, in order. */
  spilled: SpilledLine[];
  /** Entries whose spilled line changed, by spill index. */
  spillIndexOf: Map<SessionEntry, number>;
  /** Entries left with nothing to send, and what stripping them removed. */
  emptied: Map<SessionEntry, Partial<RemovalCounts>>;
  /** Entries the API never sees, with the rule that drops them. */
  droppedForType: [SessionEntry, keyof RemovalCounts][];
  /** Digests of the texts of every entry that has texts, as read (none when `countOnly`: only the check of an output reads them). */
  originalTexts: Map<SessionEntry, TextDigest[]>;
  /** 1-based numbers of lines that are not one JSON record. */
  malformedLines: number[];
  /** Entries before `dropBefore`, without `chainOnlyBeforeBoundary`: indexed only, neither stripped nor spilled. */
  beforeBoundary: SessionEntry[];
  /** Tokens of entries from `countFrom` on, as read and as stripped (null: emptied). */
  tokens: Map<SessionEntry, { before: RecordTokens; after: RecordTokens | null }>;
  /** TodoWrite calls in file order, with the entries of the call and of its result; empty if too many to keep. */
  todoCalls: TodoCallSeen[];
  /** Lines before `asIsBefore`: indexed, to be copied as they are (the first `asIsLines` of `lines`). */
  asIsLines: number;
  /** Edit and MultiEdit calls of the stripped lines, by tool id, and whether their results say they applied. */
  editCalls: Map<string, EditCallSeen>;
  /** Calls a later twin may supersede (superseded.ts), in file order, with their results as read. */
  supersedableCalls: SupersedableCall[];
  /** Written texts and plans as read, for what later calls supersede (decided in pass 2). */
  superseded: SupersededInputs;
  /** With `historyElsewhere`: the chain read there, to keep for the next trim. */
  historyChain?: HistoryChain;
}

export interface TodoCallSeen {
  toolId: string;
  todos: JsonObject[];
  use: SessionEntry;
  result?: SessionEntry;
  /** Its result carries the note of an earlier trim. */
  shortened: boolean;
}

/** Characters of TodoWrite lists kept at most; past that no list is shortened (memory stays bounded). */
const MAX_TODO_CHARS = 4 * 1024 * 1024;

/** Notes the TodoWrite calls of a record, and the results that answer them. */
function noteTodoCalls(record: JsonObject, entry: SessionEntry, seen: Map<string, TodoCallSeen>, order: TodoCallSeen[], budget: { chars: number }): void {
  if (budget.chars < 0) return;
  for (const block of contentBlocks(record)) {
    if (block.type === 'tool_use' && block.name === 'TodoWrite' && typeof block.id === 'string') {
      const todos = todosOf(block.input);
      if (!todos) continue;
      budget.chars -= jsonText(todos).length;
      if (budget.chars < 0) {
        order.length = 0;
        seen.clear();
        return;
      }
      const call: TodoCallSeen = { toolId: block.id, todos, use: entry, shortened: false };
      seen.set(block.id, call);
      order.push(call);
    } else if (block.type === 'tool_result' && typeof block.tool_use_id === 'string') {
      const call = seen.get(block.tool_use_id);
      if (!call) continue;
      call.result = entry;
      call.shortened = contentText(block.content).startsWith(SHORTENED_TODO_MARK);
    }
  }
}

export interface PassOneSetup {
  options: TrimOptions;
  /** Read the log up to this byte offset only (TrimTarget.bytes). */
  end?: number;
  fileHolds: (path: string, text: string) => boolean;
  fileLines?: (path: string) => ReadonlySet<string> | undefined;
  /**
   * Byte offset of the last compaction boundary when the trim drops what comes before it: those
   * lines are only indexed (metadata lines are kept as they are).
   */
  dropBefore?: number;
  /**
   * Lines before `dropBefore` are not indexed (their metadata lines bar): pass 2 only needs to
   * know that what follows resumes the same way without them (`DroppedHistory`).
   */
  chainOnlyBeforeBoundary?: boolean;
  /**
   * Lines before this byte offset are copied as they are (historyAsIs): indexed for their place in
   * the chain only, neither stripped nor spilled; pass 2 copies their bytes from the file.
   */
  asIsBefore?: number;
  /** With `asIsBefore`: the lines copied as they are, as a previous trim read them (history-chain.ts). */
  history?: HistoryReader;
  /**
   * With `asIsBefore`: the chain of the lines before `bytes` (`asIsBefore`, or a line start before
   * it), being read elsewhere (a worker thread), and how many lines they are. Pass 1 then reads
   * only what follows (the rest of the history as it reads history), and puts those lines first.
   */
  historyElsewhere?: { bytes: number; lines: number; chain: Promise<HistoryChain | undefined> };
  /**
   * Count the tokens of messages from this byte offset on while their records are parsed anyway:
   * set when what follows the last boundary (what Claude Code sends) is known and small.
   */
  countFrom?: number;
  /** Only the counts are wanted (countTrim): no output is modelled or checked, so no digests of the texts as read. */
  countOnly?: boolean;
}

/**
 * Metadata lines kept even before the last compaction boundary: titles, links and the session
 * state the client reads back on resume (permission mode, worktree, agent settings, the bridge),
 * whose last value must survive a trim that drops the history. No content.
 */
export const METADATA_TYPES = new Set([
  'summary',
  'custom-title',
  'ai-title',
  'tag',
  'agent-name',
  'agent-setting',
  'agent-color',
  'pr-link',
  'last-prompt',
  'mode',
  'permission-mode',
  'worktree-state',
  'bridge-session',
  'relocated',
  'frame-link',
  'content-replacement',
  'marble-origami-commit',
  'marble-origami-snapshot',
]);

function droppedByType(entry: SessionEntry): keyof RemovalCounts | undefined {
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

/** Entries whose texts Claude Code may send (user/assistant text blocks, local command output). */
export function hasTexts(entry: SessionEntry): boolean {
  return entry.type === 'system' || entry.blocks.some((b) => b.type === 'text');
}

/** A dropped line's entry: its place in the chain only, when that is all the caller will read. */
function skimChain(bytes: Buffer, line: number, chainOnly: boolean): ParsedLine {
  const entry = chainOnly ? skimEntry(bytes, line, true) : undefined;
  return entry ? { status: 'entry', entries: [entry] } : parseLine(bytes, line);
}

/** One line parsed whole: the entry for the model and the record to strip. */
export function parseWhole(bytes: Buffer, line: number): ParsedLine & { record?: JsonObject } {
  if (bytes.length > 0) {
    try {
      const value: unknown = JSON.parse(bytes.toString('utf8'));
      const entry = toEntry(value, line, 0);
      if (entry) return { status: 'entry', entries: [entry], record: value as JsonObject };
    } catch {
      // not one JSON record: parseLine tells blank, glued and malformed apart
    }
  }
  return parseLine(bytes, line);
}

/**
 * Strips one parsed record; returns the bytes to spill, or undefined when nothing is left to send.
 * `ctx` is the pass's one context, its counts zero on entry and left so.
 */
function stripRecord(record: JsonObject, original: Buffer, ctx: StripContext): { bytes?: Buffer; changed: boolean; removed: Partial<RemovalCounts> } {
  const result = stripMessageRecord(record, ctx);
  // Only the rules that applied: one of these is kept per stripped line (a small object, not all the counts).
  const removed: Partial<RemovalCounts> = {};
  const counts = ctx.counts;
  for (const key in counts) {
    const n = counts[key as keyof RemovalCounts];
    if (n !== 0) {
      removed[key as keyof RemovalCounts] = n;
      counts[key as keyof RemovalCounts] = 0;
    }
  }
  if (result.emptied) return { changed: true, removed };
  return { bytes: result.changed ? Buffer.from(jsonText(record)) : original, changed: result.changed, removed };
}

export async function passOne(path: string, setup: PassOneSetup, spill: Spill): Promise<PassOneResult> {
  // Tool calls seen so far, by id: their results come later in the file.
  const calls = new Map<string, ToolCall>();
  const written = new WrittenTexts();
  const result: PassOneResult = {
    lines: [],
    lineCount: 0,
    dropped: setup.chainOnlyBeforeBoundary && setup.dropBefore !== undefined ? new DroppedHistory() : undefined,
    spilled: [],
    spillIndexOf: new Map(),
    emptied: new Map(),
    droppedForType: [],
    originalTexts: new Map(),
    malformedLines: [],
    beforeBoundary: [],
    tokens: new Map(),
    todoCalls: [],
    asIsLines: 0,
    editCalls: new Map(),
    supersedableCalls: [],
    superseded: new SupersededInputs(setup.options.threshold),
  };
  const supersedableById = new Map<string, SupersedableCall>();
  const stripContext: StripContext = { options: setup.options, counts: emptyCounts(), calls, fileHolds: setup.fileHolds, fileLines: setup.fileLines, written, cwd: undefined, uuid: undefined };
  const asIsBefore = setup.asIsBefore ?? -1;
  const todoCallsById = new Map<string, TodoCallSeen>();
  const todoBudget = { chars: MAX_TODO_CHARS };
  const countFrom = setup.countFrom ?? Infinity;
  const toolNames = { get: (id: string) => calls.get(id)?.name };
  // Once a main-chain message is read, the log is no subagent's transcript, and Claude Code sends
  // none of its sidechain messages: they are not counted (finishTrim counts a sent one it lacks).
  let mainSeen = false;
  const dropBefore = setup.dropBefore ?? -1;
  const elsewhere = setup.asIsBefore !== undefined ? setup.historyElsewhere : undefined;
  const from = elsewhere ? { offset: elsewhere.bytes, index: elsewhere.lines } : undefined;
  // One line, worked through synchronously: returns the bytes to spill, if any. Kept out of
  // passOne's own body, which is resumed once per chunk read, not once per line (an async
  // function resumed per line was optimised again and again, each time at length).
  const step = (raw: RawLine): Buffer | undefined => {
    result.lineCount++;
    if (raw.offset < asIsBefore) {
      // Copied as it is, never stripped: only its place in the chain is read (or taken as kept).
      const kept = setup.history?.line(raw.index, raw.offset, raw.bytes, raw.terminated);
      if (kept) {
        result.lines.push(kept);
        if (kept.status === 'malformed' || kept.status === 'glued') result.malformedLines.push(raw.index + 1);
        result.asIsLines++;
        return undefined;
      }
      const line = historyLine(raw);
      result.lines.push(line);
      if (line.status === 'malformed' || line.status === 'glued') result.malformedLines.push(raw.index + 1);
      result.asIsLines++;
      return undefined;
    }
    const dropped = raw.offset < dropBefore;
    // A line the trim drops needs only its place in the chain: skimmed, its payload never decoded.
    const parsed: ParsedLine & { record?: JsonObject } = dropped ? skimChain(raw.bytes, raw.index, setup.chainOnlyBeforeBoundary === true) : parseWhole(raw.bytes, raw.index);
    if (dropped && result.dropped && (parsed.status === 'blank' || (parsed.status === 'entry' && !METADATA_TYPES.has(parsed.entries[0].type)))) {
      if (parsed.status === 'entry') result.dropped.note(parsed.entries[0]);
      return undefined;
    }
    result.lines.push({ index: raw.index, offset: raw.offset, length: raw.bytes.length, terminated: raw.terminated, status: parsed.status, entries: parsed.entries, error: parsed.error });
    if (parsed.status === 'blank') return undefined;
    if (dropped && parsed.status === 'entry') {
      const entry = parsed.entries[0];
      if (METADATA_TYPES.has(entry.type)) {
        result.spilled.push({ entry, changed: false });
        return raw.bytes;
      } else {
        result.beforeBoundary.push(entry);
      }
      return undefined;
    }
    if (parsed.status !== 'entry' || !parsed.record) {
      // Claude Code skips such a line whole; kept verbatim, it stays as harmless as it was.
      result.malformedLines.push(raw.index + 1);
      result.spilled.push({ changed: false });
      return raw.bytes;
    }
    const entry = parsed.entries[0];
    const record = parsed.record;
    written.noteLine(entry.uuid, entry.parentUuid, raw.index);
    if (entry.blocks.some((b) => (b.type === 'tool_use' && b.name === 'TodoWrite') || (b.type === 'tool_result' && b.toolId && todoCallsById.has(b.toolId)))) {
      noteTodoCalls(record, entry, todoCallsById, result.todoCalls, todoBudget);
    }
    if (!setup.countOnly && hasTexts(entry)) result.originalTexts.set(entry, textsOfRecord(record, entry).map(digestText));
    if (entry.blocks.some((b) => b.type === 'tool_use' || b.type === 'tool_result')) {
      noteEditCalls(entry, result.editCalls);
      noteSupersedableCalls(record, entry, supersedableById, result.supersedableCalls, setup.options.threshold);
      result.superseded.note(record, entry);
    }
    const reason = droppedByType(entry);
    if (reason) {
      result.droppedForType.push([entry, reason]);
      return undefined;
    }
    const isAssistant = entry.type === 'assistant';
    if (!entry.isSidechain && (isAssistant || entry.type === 'user')) mainSeen = true;
    // A result of a call not seen yet is counted later, when the whole log names its tool.
    const counted = raw.offset >= countFrom && !(entry.isSidechain && mainSeen) && !entry.blocks.some((b) => b.type === 'tool_result' && !(b.toolId && calls.has(b.toolId)));
    if (!needsStripping(entry)) {
      if (counted) {
        // Counting only, long texts are estimated (estimate.ts).
        const before = recordTokens(isAssistant, record, toolNames, setup.countOnly ? estimatingCounter : undefined);
        result.tokens.set(entry, { before, after: before });
      }
      result.spilled.push({ entry, changed: false });
      return raw.bytes;
    }
    // Counting only, long texts are estimated, not counted (estimate.ts).
    const counter = counted && setup.countOnly ? new StrippedRecordCounter(isAssistant, toolNames) : undefined;
    const before = counter ? counter.before(record) : counted ? recordTokens(isAssistant, record, toolNames) : undefined;
    const stripped = stripRecord(record, raw.bytes, stripContext);
    if (entry.blocks.some((b) => b.type === 'tool_use')) result.superseded.noteStripped(record, entry);
    // A record the strip left as it was counts the same after (not walked again).
    if (counter && before) result.tokens.set(entry, stripped.bytes && !stripped.changed ? counter.unchanged(before) : counter.after(stripped.bytes ? record : null, before));
    else if (before) result.tokens.set(entry, { before, after: !stripped.bytes ? null : stripped.changed ? recordTokens(isAssistant, record, toolNames) : before });
    if (!stripped.bytes) {
      result.emptied.set(entry, stripped.removed);
      return undefined;
    }
    if (stripped.changed) result.spillIndexOf.set(entry, result.spilled.length);
    result.spilled.push({ entry, changed: stripped.changed, removed: stripped.removed });
    return stripped.bytes;
  };
  const stepAll = (batch: RawLine[]): Buffer[] => {
    const out: Buffer[] = [];
    for (const raw of batch) {
      const bytes = step(raw);
      if (bytes) out.push(bytes);
    }
    return out;
  };
  // A spill that copies what it is given lets the reader reuse its two read buffers: no line's bytes outlive their batch.
  for await (const batch of readRawLineBatches(path, { recycle: spill.copies, from, end: setup.end })) await spill.appendAll(stepAll(batch));
  setup.history?.finish();
  if (elsewhere) {
    // The history read elsewhere goes first; a chain that does not end where this read began
    // (the worker failed, or the file is not what was counted) reads everything here again.
    const chain = await elsewhere.chain;
    if (!chain || chain.lines.length !== elsewhere.lines || chain.bytes !== elsewhere.bytes) throw new HistoryChanged();
    const malformed = chain.lines.filter((l) => l.status === 'malformed' || l.status === 'glued').map((l) => l.index + 1);
    result.lines = chain.lines.concat(result.lines);
    result.malformedLines = malformed.concat(result.malformedLines);
    result.lineCount += chain.lines.length;
    // The history's lines read here (when the chain covers only its first part) follow those.
    result.asIsLines += chain.lines.length;
    // A chain of the whole history is kept as it came; one of its first part, joined with the
    // lines read here, is made by the history reader (its digest of the whole history).
    if (chain.bytes === setup.asIsBefore) result.historyChain = chain;
  }
  await spill.finish();
  return result;
}
