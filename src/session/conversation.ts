// The conversation model: one pass over parsed lines groups split API responses, pairs tool
// calls with results, and walks the parent chain to find what Claude Code would send on resume.

import type { DerivedFacts, SessionEntry, Usage, LineStatus } from './entry.js';
import { DEFAULT_CLIENT, type ClientModel } from './clients.js';

export interface SessionLine {
  index: number;
  offset: number;
  /** Raw bytes without the '\n'; absent when the session was indexed without keeping them. */
  bytes?: Buffer;
  length: number;
  terminated: boolean;
  status: LineStatus;
  entries: SessionEntry[];
  error?: string;
}

/** One API response, which Claude Code may have written over several lines. */
export interface ResponseGroup {
  key: string;
  messageId: string;
  requestId?: string;
  model?: string;
  entries: SessionEntry[];
  /** Usage of the response: the largest line of the group (the last when equal), never a sum. */
  usage?: Usage;
  /** `<synthetic>` responses are Claude Code's own API-error placeholders, not API calls. */
  synthetic: boolean;
  /** A copy cmv made of a response of another log (session/derived.ts): no call of this session. */
  derived?: DerivedFacts;
  isSidechain: boolean;
  timestamp?: string;
}

export interface ToolPair {
  id: string;
  name?: string;
  use: SessionEntry;
  result: SessionEntry;
  isError: boolean;
}

export interface ToolEnd {
  id: string;
  entry: SessionEntry;
  name?: string;
}

export interface Conversation {
  /** Every record of the file's well-formed lines, in file order. */
  entries: SessionEntry[];
  /** Records recovered from lines holding several glued together: reported, not part of the conversation. */
  gluedEntries: SessionEntry[];
  byUuid: Map<string, SessionEntry>;
  responses: ResponseGroup[];
  responseOf: Map<SessionEntry, ResponseGroup>;
  toolPairs: ToolPair[];
  unpairedToolUses: ToolEnd[];
  unpairedToolResults: ToolEnd[];
  /** Entries on the chain Claude Code would resume, oldest first, in file order. */
  activePath: SessionEntry[];
  /** The entries of the active path Claude Code sends to the API on resume (user, assistant, local command output). */
  sentMessages: SessionEntry[];
  /** The whole logical history: the active path extended across compaction boundaries. */
  logicalPath: SessionEntry[];
  leaf?: SessionEntry;
  compactBoundaries: SessionEntry[];
  /** Entries whose parentUuid names no entry in the file. */
  danglingParents: SessionEntry[];
  /** Inline subagent chains (isSidechain entries in this file), by root uuid or agentId. */
  sidechains: Map<string, SessionEntry[]>;
  /** True when the file is itself a subagent transcript (every conversational entry a sidechain). */
  isSubagentTranscript: boolean;
  /** The client whose resume this model describes. */
  client: ClientModel;
  /** Entries a compaction's preserved segment puts after the summary (empty when the log has none, or the client ignores it). */
  preserved: Set<SessionEntry>;
  /**
   * Gaps of the resumed chain Claude Code bridges by time: an entry whose parent is missing from
   * the file, and the entry at most 5 s older its fallback reaches. A trim that drops the entry or
   * its bridge must link across the gap itself.
   */
  bridges: Map<SessionEntry, SessionEntry>;
  /**
   * Set when Claude Code does not load every line (a log over 5 MiB, streamed): the first line it
   * leaves unread, or the file's end when it reads to the end but forgets what precedes a boundary.
   */
  streamedLoad?: { stoppedAtLine?: number };
}

const CONVERSATIONAL = new Set(['user', 'assistant']);

export function isConversational(entry: SessionEntry): boolean {
  return CONVERSATIONAL.has(entry.type);
}

function usageSize(u: Usage): number {
  return u.inputTokens + u.cacheCreationTokens + u.cacheReadTokens + u.outputTokens;
}

export function groupResponses(entries: SessionEntry[]): { responses: ResponseGroup[]; responseOf: Map<SessionEntry, ResponseGroup> } {
  const byKey = new Map<string, ResponseGroup>();
  const responses: ResponseGroup[] = [];
  const responseOf = new Map<SessionEntry, ResponseGroup>();
  for (const entry of entries) {
    if (entry.type !== 'assistant' || !entry.messageId) continue;
    const key = `${entry.messageId}\u0000${entry.requestId ?? ''}\u0000${entry.isSidechain ? (entry.agentId ?? 's') : ''}`;
    let group = byKey.get(key);
    if (!group) {
      group = {
        key,
        messageId: entry.messageId,
        requestId: entry.requestId,
        model: entry.model,
        entries: [],
        synthetic: entry.model === '<synthetic>',
        isSidechain: entry.isSidechain,
        timestamp: entry.timestamp,
      };
      byKey.set(key, group);
      responses.push(group);
    }
    group.entries.push(entry);
    responseOf.set(entry, group);
    if (entry.derived) group.derived ??= entry.derived;
    if (entry.usage && (!group.usage || usageSize(entry.usage) >= usageSize(group.usage))) group.usage = entry.usage;
  }
  return { responses, responseOf };
}

function pairTools(entries: SessionEntry[]): Pick<Conversation, 'toolPairs' | 'unpairedToolUses' | 'unpairedToolResults'> {
  const uses = new Map<string, ToolEnd>();
  const results: ToolEnd[] = [];
  for (const entry of entries) {
    for (const block of entry.blocks) {
      if (!block.toolId) continue;
      if (block.type === 'tool_use') uses.set(block.toolId, { id: block.toolId, entry, name: block.name });
      else if (block.type === 'tool_result') results.push({ id: block.toolId, entry });
    }
  }
  const toolPairs: ToolPair[] = [];
  const unpairedToolResults: ToolEnd[] = [];
  const paired = new Set<string>();
  for (const result of results) {
    const use = uses.get(result.id);
    if (!use || paired.has(result.id)) {
      unpairedToolResults.push(result);
      continue;
    }
    paired.add(result.id);
    const block = result.entry.blocks.find((b) => b.type === 'tool_result' && b.toolId === result.id);
    toolPairs.push({ id: result.id, name: use.name, use: use.entry, result: result.entry, isError: block?.isError === true });
  }
  const unpairedToolUses = [...uses.values()].filter((use) => !paired.has(use.id));
  return { toolPairs, unpairedToolUses, unpairedToolResults };
}

/** Claude Code's fallback for a parent missing from the file: an entry at most this much older. */
export const DANGLING_FALLBACK_MS = 5000;

interface ChainIndex {
  byUuid: Map<string, SessionEntry>;
  /** Chain candidates (main-chain entries with a uuid and a timestamp), sorted by time. */
  byTime: { entry: SessionEntry; ms: number }[];
  /** Parents as the client re-links them on load (a compaction's preserved segment). */
  relinked?: Map<SessionEntry, string | null | undefined>;
}

/** The parent uuid the client walks to: the log's, unless the client re-linked it on load. */
function parentUuidOf(entry: SessionEntry, index: ChainIndex): string | null | undefined {
  return index.relinked?.has(entry) ? index.relinked.get(entry) : entry.parentUuid;
}

/**
 * 2.1.100 reads a log over 5 MiB as a stream (cli.js, the loader behind CLAUDE_CODE_DISABLE_PRECOMPACT_SKIP):
 * a compact_boundary line forgets every message before it, in file order, and the first line that
 * is not one JSON record ends the load (its parse error is caught around the whole read). A log of
 * 5 MiB or less is read whole and such lines are skipped. Seen with the trim cases in the harness.
 */
export const STREAMED_LOAD_BYTES = 5 * 1024 * 1024;

/**
 * The lines Claude Code loads from a log over 5 MiB (2.1.100): from the last compaction boundary
 * before where the load stopped (the first line that is not one JSON record, or the end).
 */
function streamedLoad(lines: SessionLine[]): { fromLine: number; stoppedAtLine?: number } {
  let fromLine = 0;
  for (const line of lines) {
    if (line.status === 'malformed' || line.status === 'glued') return { fromLine, stoppedAtLine: line.index };
    // A boundary that keeps a preserved segment does not forget what precedes it (cli.js skips those).
    for (const entry of line.entries) if (entry.type === 'system' && entry.subtype === 'compact_boundary' && !entry.preservedSegment) fromLine = line.index;
  }
  return { fromLine };
}

/** Resolves a parent through progress lines, which Claude Code does not count as chain members. */
function parentOf(entry: SessionEntry, index: ChainIndex): { parent?: SessionEntry; missing?: string } {
  let parentUuid = parentUuidOf(entry, index);
  // Made only when a progress line is passed: most parents are found at the first step.
  let seen: Set<string> | undefined;
  while (typeof parentUuid === 'string' && !seen?.has(parentUuid)) {
    const parent = index.byUuid.get(parentUuid);
    if (!parent) return { missing: parentUuid };
    if (parent.type !== 'progress') return { parent };
    (seen ??= new Set()).add(parentUuid);
    parentUuid = parentUuidOf(parent, index);
  }
  return {};
}

/** Whether an entry roots a chain: its parent, resolved through progress lines, is null (not missing). */
export function startsChain(entry: SessionEntry, byUuid: Map<string, SessionEntry>): boolean {
  const { parent, missing } = parentOf(entry, { byUuid, byTime: [] });
  return !parent && !missing;
}

/** The uuid an entry's parent names, resolved through progress lines, when no entry of `byUuid` has it. */
export function missingParentOf(entry: SessionEntry, byUuid: Map<string, SessionEntry>): string | undefined {
  return parentOf(entry, { byUuid, byTime: [] }).missing;
}

/**
 * A parent missing from the file: Claude Code takes the closest entry at or before the child's
 * time, at most 5 s older, not already on the chain; without one the chain ends there.
 */
function danglingFallback(child: SessionEntry, index: ChainIndex, onChain: Set<SessionEntry>): SessionEntry | undefined {
  const ms = child.timestamp ? Date.parse(child.timestamp) : NaN;
  if (Number.isNaN(ms)) return undefined;
  // The last candidate at or before `ms` (binary search), then back while within the window.
  const times = index.byTime;
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid].ms <= ms) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo - 1; i >= 0 && ms - times[i].ms <= DANGLING_FALLBACK_MS; i--) {
    const candidate = times[i].entry;
    if (candidate !== child && !onChain.has(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Walks parentUuid links from `start`, as Claude Code does on resume. `stopAtBoundary` ends the
 * walk at a compact_boundary; otherwise its logicalParentUuid is followed (the logical history).
 */
function walkChain(start: SessionEntry, index: ChainIndex, stopAtBoundary: boolean, bridges?: Map<SessionEntry, SessionEntry>): SessionEntry[] {
  const chain: SessionEntry[] = [];
  const seen = new Set<SessionEntry>();
  let current: SessionEntry | undefined = start;
  while (current && !seen.has(current)) {
    seen.add(current);
    chain.push(current);
    if (current.type === 'system' && current.subtype === 'compact_boundary') {
      if (stopAtBoundary || !current.logicalParentUuid) break;
      current = index.byUuid.get(current.logicalParentUuid);
      continue;
    }
    const { parent, missing } = parentOf(current, index);
    const bridge = !parent && missing ? danglingFallback(current, index, seen) : undefined;
    if (bridge) bridges?.set(current, bridge);
    current = parent ?? bridge;
  }
  return chain.reverse();
}

/** Adds the lines Claude Code recovers beside the chain: sibling lines of a split response and their tool results. */
function withParallelSiblings(chain: SessionEntry[], responseOf: Map<SessionEntry, ResponseGroup>, resultOf: Map<string, SessionEntry>): SessionEntry[] {
  const included = new Set(chain);
  for (const entry of chain) {
    const group = responseOf.get(entry);
    if (!group) continue;
    for (const sibling of group.entries) {
      included.add(sibling);
      for (const block of sibling.blocks) {
        if (block.type !== 'tool_use' || !block.toolId) continue;
        const result = resultOf.get(block.toolId);
        if (result) included.add(result);
      }
    }
  }
  return [...included].sort((a, b) => a.line - b.line || a.record - b.record);
}

/**
 * File order, except that a preserved segment (which stands before the boundary in the file)
 * follows the summary it is re-linked to, as the client sends it.
 */
function inChainOrder(path: SessionEntry[], segment: { preserved: Set<SessionEntry>; anchorUuid?: string } | undefined): SessionEntry[] {
  const preserved = segment?.preserved;
  if (!preserved || preserved.size === 0 || !path.some((e) => preserved.has(e))) return path;
  const kept = path.filter((e) => preserved.has(e));
  const rest = path.filter((e) => !preserved.has(e));
  const at = rest.findIndex((e) => e.uuid === segment.anchorUuid) + 1;
  return [...rest.slice(0, at), ...kept, ...rest.slice(at)];
}

/** Leaf candidates: what Claude Code considers the end of a conversation. */
const LEAF_TYPES = new Set(['user', 'assistant', 'attachment', 'system']);

/** Whether an entry of this type may be the leaf Claude Code resumes from (if on the main chain). */
export function isLeafType(type: string): boolean {
  return LEAF_TYPES.has(type);
}

/**
 * Whether Claude Code sends an entry of the resumed path to the API. It sends user and assistant
 * messages and local command output, and drops assistant lines with nothing but blank text,
 * thinking-only lines whose response has nothing else, lines whose every tool call lacks a
 * result, and its own API-error placeholders.
 */
function isSent(entry: SessionEntry, responseOf: Map<SessionEntry, ResponseGroup>, resultOf: Map<string, SessionEntry>): boolean {
  if (entry.type === 'system') return entry.subtype === 'local_command';
  if (entry.type === 'user') return true;
  if (entry.type !== 'assistant') return false;
  if (entry.isApiErrorMessage && entry.model === '<synthetic>') return false;
  if (entry.blocks.length > 0 && entry.blocks.every((b) => b.type === 'text' && b.blank)) return false;
  const uses = entry.blocks.filter((b) => b.type === 'tool_use');
  if (uses.length > 0 && uses.every((b) => !b.toolId || !resultOf.has(b.toolId))) return false;
  if (entry.blocks.length > 0 && entry.blocks.every((b) => b.type === 'thinking' || b.type === 'redacted_thinking')) {
    const group = responseOf.get(entry);
    const others = group ? group.entries.some((e) => e !== entry && e.blocks.some((b) => b.type !== 'thinking' && b.type !== 'redacted_thinking')) : false;
    return others;
  }
  return true;
}

/**
 * A compaction's preserved segment, as the client applies it on load (see clients.ts,
 * 'preserved-segment'): walk from tail to head; head hangs from the anchor (the summary), the
 * anchor's other children from the tail; everything before the last boundary but the segment is
 * dropped. Only the last boundary's segment is re-linked; a broken walk changes nothing.
 */
function applyPreservedSegment(
  entries: SessionEntry[],
  byUuid: Map<string, SessionEntry>,
): { relinked: Map<SessionEntry, string | null | undefined>; preserved: Set<SessionEntry>; dropped: Set<SessionEntry>; anchorUuid: string } | undefined {
  let lastBoundary = -1;
  let segment: SessionEntry['preservedSegment'];
  let segmentAt = -1;
  entries.forEach((entry, i) => {
    if (entry.type !== 'system' || entry.subtype !== 'compact_boundary') return;
    lastBoundary = i;
    const found = entry.preservedSegment;
    if (found) {
      segment = found;
      segmentAt = i;
    }
  });
  if (!segment) return undefined;
  const relinked = new Map<SessionEntry, string | null | undefined>();
  const preserved = new Set<SessionEntry>();
  if (segmentAt === lastBoundary) {
    const walked = new Set<string>();
    let current = byUuid.get(segment.tailUuid);
    let reached = false;
    while (current?.uuid && !walked.has(current.uuid)) {
      walked.add(current.uuid);
      preserved.add(current);
      if (current.uuid === segment.headUuid) {
        reached = true;
        break;
      }
      current = current.parentUuid ? byUuid.get(current.parentUuid) : undefined;
    }
    if (!reached) return undefined;
    const head = byUuid.get(segment.headUuid);
    if (head) relinked.set(head, segment.anchorUuid);
    for (const entry of entries) if (entry.parentUuid === segment.anchorUuid && entry !== head) relinked.set(entry, segment.tailUuid);
  }
  const dropped = new Set<SessionEntry>();
  for (let i = 0; i < lastBoundary; i++) if (entries[i].uuid && !preserved.has(entries[i])) dropped.add(entries[i]);
  return { relinked, preserved, dropped, anchorUuid: segment.anchorUuid };
}

export interface BuildOptions {
  /** The client whose resume to model (default: DEFAULT_CLIENT). */
  client?: ClientModel;
  /** The file's size, which decides how 2.1.100 loads it (default: the lines' extent). */
  bytes?: number;
  /** A model of the same lines (another client's): what no client rule changes is taken from it, not rebuilt. */
  from?: Conversation;
}

/**
 * What a conversation model holds whatever the client: the records, their index, responses, tool
 * pairs, sidechains and timestamps. Built once per set of lines; another client's model of the same
 * lines (asResumedBy) starts from it and applies only the rules that differ by client.
 */
interface ClientFreeModel {
  lines: SessionLine[];
  lineCount: number;
  entries: SessionEntry[];
  gluedEntries: SessionEntry[];
  byUuid: Map<string, SessionEntry>;
  responses: ResponseGroup[];
  responseOf: Map<SessionEntry, ResponseGroup>;
  pairs: Pick<Conversation, 'toolPairs' | 'unpairedToolUses' | 'unpairedToolResults'>;
  resultOf: Map<string, SessionEntry>;
  isSubagentTranscript: boolean;
  danglingParents: SessionEntry[];
  /** Main-chain entries with a uuid and a readable timestamp, by time (stable: file order on a tie). */
  timed: { entry: SessionEntry; ms: number }[];
  msOf: Map<SessionEntry, number>;
  sidechains: Map<string, SessionEntry[]>;
  compactBoundaries: SessionEntry[];
}

const clientFree = new WeakMap<Conversation, ClientFreeModel>();

function clientFreeModel(lines: SessionLine[]): ClientFreeModel {
  // Claude Code skips a line that is not one JSON record, glued records included: so does the model.
  const entries: SessionEntry[] = [];
  const gluedEntries: SessionEntry[] = [];
  for (const line of lines) for (const entry of line.entries) (line.status === 'glued' ? gluedEntries : entries).push(entry);

  const byUuid = new Map<string, SessionEntry>();
  // The last record with a uuid wins, as in a Map filled in file order (a resumed session may rewrite a line).
  for (const entry of entries) if (entry.uuid) byUuid.set(entry.uuid, entry);
  // Each child holds the same value as its parent's uuid: sharing that one string halves the
  // uuid strings a long log's index keeps.
  for (const entry of entries) {
    const parent = typeof entry.parentUuid === 'string' ? byUuid.get(entry.parentUuid) : undefined;
    if (parent) entry.parentUuid = parent.uuid;
  }

  const { responses, responseOf } = groupResponses(entries);
  const pairs = pairTools(entries);
  const resultOf = new Map<string, SessionEntry>();
  for (const pair of pairs.toolPairs) resultOf.set(pair.id, pair.result);

  const mainConversational = entries.filter((e) => isConversational(e) && e.uuid && !e.isSidechain);
  const isSubagentTranscript = mainConversational.length === 0 && entries.some((e) => isConversational(e) && e.isSidechain);
  const danglingParents = entries.filter((e) => typeof e.parentUuid === 'string' && !byUuid.has(e.parentUuid));
  const timed: ClientFreeModel['timed'] = [];
  const msOf = new Map<SessionEntry, number>();
  for (const entry of entries) {
    if (entry.uuid === undefined || (!isSubagentTranscript && entry.isSidechain) || !entry.timestamp) continue;
    const ms = Date.parse(entry.timestamp);
    if (Number.isNaN(ms)) continue;
    msOf.set(entry, ms);
    timed.push({ entry, ms });
  }
  timed.sort((a, b) => a.ms - b.ms);

  const sidechains = new Map<string, SessionEntry[]>();
  if (!isSubagentTranscript) {
    const rootOf = new Map<SessionEntry, string>();
    for (const entry of entries) {
      if (!entry.isSidechain) continue;
      let key = entry.agentId;
      if (!key) {
        const parent = typeof entry.parentUuid === 'string' ? byUuid.get(entry.parentUuid) : undefined;
        key = parent && parent.isSidechain ? rootOf.get(parent) : undefined;
        key ??= entry.uuid ?? `line-${entry.line}`;
      }
      rootOf.set(entry, key);
      const list = sidechains.get(key);
      if (list) list.push(entry);
      else sidechains.set(key, [entry]);
    }
  }
  return {
    lines,
    lineCount: lines.length,
    entries,
    gluedEntries,
    byUuid,
    responses,
    responseOf,
    pairs,
    resultOf,
    isSubagentTranscript,
    danglingParents,
    timed,
    msOf,
    sidechains,
    compactBoundaries: entries.filter((e) => e.type === 'system' && e.subtype === 'compact_boundary'),
  };
}

export function buildConversation(lines: SessionLine[], options: BuildOptions = {}): Conversation {
  const client = options.client ?? DEFAULT_CLIENT;
  const bytes = options.bytes ?? extentOf(lines);
  const shared = options.from ? clientFree.get(options.from) : undefined;
  const base = shared && shared.lines === lines && shared.lineCount === lines.length ? shared : clientFreeModel(lines);
  const { entries, gluedEntries, byUuid, responses, responseOf, pairs, resultOf, isSubagentTranscript, danglingParents, msOf, sidechains } = base;
  const onMainChain = (e: SessionEntry) => e.uuid !== undefined && (isSubagentTranscript || !e.isSidechain);

  // What the client loads: every entry; for a log over 5 MiB streamed by 2.1.100 only what it reads
  // and keeps; without what a compaction's preserved segment drops.
  const streamed = client.stopsAtMalformedOver5MiB && bytes > STREAMED_LOAD_BYTES ? streamedLoad(lines) : undefined;
  const segment = client.preservedSegments ? applyPreservedSegment(entries, byUuid) : undefined;
  // The entries loaded, when not all: a run of lines (a slice of the entries in file order) less the segment's drop.
  const loadedUntil = streamed?.stoppedAtLine ?? Infinity;
  const restricted = (streamed !== undefined && (streamed.fromLine > 0 || loadedUntil !== Infinity)) || (segment !== undefined && segment.dropped.size > 0);
  const isLoaded = (e: SessionEntry): boolean => (streamed === undefined || (e.line >= streamed.fromLine && e.line < loadedUntil)) && !segment?.dropped.has(e);
  const loaded = restricted ? entries.filter(isLoaded) : undefined;
  const loadedByUuid = loaded ? new Map(loaded.filter((e) => e.uuid).map((e) => [e.uuid!, e])) : byUuid;
  // Stable: entries of the same time keep file order, and the fallback takes the latest of them.
  const byTime: ChainIndex['byTime'] = base.timed.filter((t) => t.entry.type !== 'progress' && isLoaded(t.entry));
  const historyIndex: ChainIndex = { byUuid, byTime, relinked: segment?.relinked };
  const chainIndex: ChainIndex = loaded ? { byUuid: loadedByUuid, byTime: byTime.filter((t) => isLoaded(t.entry)), relinked: segment?.relinked } : historyIndex;

  let leaf: SessionEntry | undefined;
  if (client.leaf === 'last-in-file') {
    // 2.1.332: the last candidate in file order, whatever the timestamps say.
    for (const entry of entries) if (onMainChain(entry) && LEAF_TYPES.has(entry.type) && isLoaded(entry)) leaf = entry;
  } else {
    // 2.1.100: the latest entry by time (the first in file order on a tie), not the last line.
    let leafMs = -Infinity;
    for (const entry of entries) {
      if (!onMainChain(entry) || !LEAF_TYPES.has(entry.type) || !isLoaded(entry)) continue;
      const ms = msOf.get(entry);
      if (!leaf || (ms !== undefined && ms > leafMs)) {
        leaf = entry;
        leafMs = ms ?? leafMs;
      }
    }
  }

  const bridges = new Map<SessionEntry, SessionEntry>();
  const activeChain = leaf ? walkChain(leaf, chainIndex, true, bridges) : [];
  // A streamed load sees only the lines it loaded: a response's sibling or a tool's result past
  // where it stopped is not there.
  const pathResponseOf = loaded ? groupResponses(loaded).responseOf : responseOf;
  const pathResultOf = loaded ? new Map(pairTools(loaded).toolPairs.map((p) => [p.id, p.result])) : resultOf;
  const activePath = inChainOrder(withParallelSiblings(activeChain, pathResponseOf, pathResultOf), segment);
  const sentMessages = activePath.filter((e) => isSent(e, pathResponseOf, pathResultOf));
  let logicalPath: SessionEntry[] | undefined;

  const conversation: Conversation = {
    entries,
    gluedEntries,
    byUuid,
    responses,
    responseOf,
    ...pairs,
    activePath,
    sentMessages,
    // Walked only when asked for: most commands need just the resumed path.
    get logicalPath(): SessionEntry[] {
      logicalPath ??= leaf ? inChainOrder(withParallelSiblings(walkChain(leaf, historyIndex, false), responseOf, resultOf), segment) : [];
      return logicalPath;
    },
    leaf,
    compactBoundaries: base.compactBoundaries,
    danglingParents,
    sidechains,
    isSubagentTranscript,
    client,
    preserved: segment?.preserved ?? new Set(),
    bridges,
    streamedLoad: streamed ? { stoppedAtLine: streamed.stoppedAtLine } : undefined,
  };
  clientFree.set(conversation, base);
  return conversation;
}

function extentOf(lines: SessionLine[]): number {
  const last = lines[lines.length - 1];
  return last ? last.offset + last.length + (last.terminated ? 1 : 0) : 0;
}
