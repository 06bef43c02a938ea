// The three-pass trim. Pass 1 (pass-one.ts) reads the log once: it indexes every line for the
// conversation model and strips each record as it goes (a record is parsed once, never twice),
// spilling the lines as they may be written; lines before the last compaction boundary are not
// parsed (streamed, not even indexed: dropped-history.ts). Pass 2 reads the spill, drops what the index says Claude Code will not see
// and repairs the chain (parents, usage, sessionId: rewritten in place, without parsing) as it
// writes. Pass 3 verifies the output, modelled from the exact bytes written, before anything is
// committed. Memory holds the index of what Claude Code resumes, never the file.

import type { Session } from '../session/session.js';
import { asResumedBy, logSize, sessionFromLines } from '../session/session.js';
import { parseLine, parseRecords, type SessionEntry } from '../session/entry.js';
import { withTopLevelValues } from '../session/skim.js';
import { stat } from 'node:fs/promises';
import type { SessionLine } from '../session/conversation.js';
import { contentBlocks, textsOfRecord, type JsonObject } from '../session/payload.js';
import { addCounted, newBreakdown, recordTokens, toolNamesOf, type TokenBreakdown } from '../tokens/breakdown.js';
import { lineReader } from '../session/line-at.js';
import { open } from 'node:fs/promises';
import { promptTokens } from '../tokens/usage.js';
import { trimOptions, emptyCounts, type TrimOptions, type RemovalCounts } from './options.js';
import { countLinesBefore, HistoryChanged, historyChainInWorker, HistoryReader, HISTORY_WORKER_BYTES, readHistoryChain, type HistoryChain } from './history-chain.js';
import { chainStartsOf, clientTexts, preservedOf, digestText, mergeClientReports, verifyAgainst, type OriginalFacts, type VerifyReport, type TextDigest } from './verify.js';
import { buildConversation } from '../session/conversation.js';
import { CLIENT_MODELS, type ClientModel } from '../session/clients.js';
import type { AtomicWriter } from '../session/write.js';
import { deriveRecord, type DerivedMark } from '../session/derived.js';
import { CmvError } from '../errors.js';
import { diskChecker, projectMove } from './disk.js';
import { METADATA_TYPES, hasTexts, parseWhole, passOne, type PassOneResult, type PassOneSetup } from './pass-one.js';
import { lastBoundaryOffset, resumedCompactionLine } from './last-boundary.js';
import { evictToBudget, type BudgetReport } from './budget.js';
import { fileSpill, memorySpill, type Spill } from './spill.js';
import { SHORTENED_TODO_NOTE, planTodoChanges } from './todo-lists.js';
import { supersededRewrites } from './superseded.js';
import { jsonText } from '../tokens/json-text.js';
import { estimatingCounter, StrippedRecordCounter } from '../tokens/estimate.js';
import { appliedEditRewrites } from './applied-edits.js';

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
  /**
   * The original as indexed in pass 1 (no bytes kept), for analyses that follow the trim. When the
   * trim streamed to a writer, lines before the last compaction boundary (dropped unread) are not
   * in it, its metadata lines bar: it holds what Claude Code resumes, not the history.
   */
  index: Session;
  /**
   * Tokens of the messages Claude Code sends on resume, per entry of the original: as they were,
   * and as the trim leaves them (before any budget eviction). Counted once, here.
   */
  tokens: { before: TokenBreakdown; after: TokenBreakdown };
  /** With `target.history`, a verified historyAsIs trim: the chain of the history it copied, to keep for the next trim. */
  historyChain?: HistoryChain;
  /** That chain was read in a worker thread while pass 1 read what follows the history. */
  historyInWorker?: boolean;
  /** That chain was handed by another reader of the same bytes (TrimTarget.history.handed), not read by this trim. */
  historyHanded?: boolean;
  /** With historyHanded: the chain handed stood for this much of the history; pass 1 read the rest. */
  historyHandedBytes?: number;
}

/** What a trim removes, counted (countTrim): a TrimResult without the output, its model or its check (no usage rewritten; output bytes as before chain links are rewritten). */
export type TrimCounts = Pick<TrimResult, 'input' | 'output' | 'reduction' | 'removed' | 'index' | 'tokens'>;

export interface TrimTarget {
  /** Rewrite every sessionId to this (the output becomes a new session). */
  newSessionId?: string;
  /** Tells whether a file on disk holds a text; defaults to never (inputs are then kept whole). */
  fileHolds?: (path: string, text: string) => boolean;
  /** With `fileHolds`: the lines of a file it answers for, to rule out cheaply what it cannot hold. */
  fileLines?: (path: string) => ReadonlySet<string> | undefined;
  /**
   * Stream the trimmed log into this writer, so memory holds no line longer than it takes; it is
   * finished (synced, not committed) once written, and committed by the caller once verified. Not with a budget.
   */
  writer?: AtomicWriter;
  /** Stub large Write/Edit inputs whose file on disk holds them (read from disk as pass 1 strips). */
  fileHoldsOnDisk?: boolean;
  /**
   * Trim the file's first `bytes` only (complete lines): the file is a log Claude Code may be
   * appending to meanwhile (an in-place trim reads the log itself; what is appended is carried).
   */
  bytes?: number;
  /**
   * The output is a copy beside its original (not the log itself, trimmed in place): its responses
   * are marked as copies (session/derived.ts), with zero usage, so no tool counts them again.
   */
  derive?: Omit<DerivedMark, 'from'>;
  /** With fileHoldsOnDisk: the session's project now lives here (a moved checkout, another machine). */
  projectDir?: string;
  /**
   * The caller keeps the chain of the history a historyAsIs trim copies (history-chain.ts): the
   * one a previous trim of this log kept, if any; the result carries the one to keep next.
   */
  history?: {
    kept?: HistoryChain;
    /** Read a history at least this long in a worker thread (HISTORY_WORKER_BYTES). */
    workerBytes?: number;
    /** SHA-256 of the input's first N bytes by N, hashed already (the backup's read): what the history reader then need not hash. */
    digests?: ReadonlyMap<number, string>;
    /**
     * The chain of the history's first `bytes` (all of it, or up to handedPartEnd) as another
     * reader of the same bytes reads it (the PreCompact hook's snapshot: SnapshotOptions.handChain),
     * to come: pass 1 reads the rest meanwhile, and the chain is taken when it stands for exactly
     * those bytes (their length, and their SHA-256 against `digests`, which must hold it and the
     * whole history's), else that part is read here after all.
     */
    handed?: { bytes: number; chain: Promise<HistoryChain | undefined> };
    /**
     * The last compaction boundary's offset as found in the same bytes (`bytes` long) by whoever
     * copied them here (an in-place trim, before its backup): not looked for again. A wrong one
     * (the bytes changed between) still gives a trim that verifies: finishTrim checks the resumed
     * path starts there, else the history is stripped too, as without historyAsIs.
     */
    boundary?: { bytes: number; offset: number | undefined };
  };
}

const NEWLINE = Buffer.from('\n');

interface OutputItem {
  entry?: SessionEntry;
  bytes: Buffer;
  changed: boolean;
  /** Present once the record had to be parsed again (the usage rewrite). */
  record?: JsonObject;
}

function addCounts(into: RemovalCounts, from: Partial<RemovalCounts>): void {
  for (const key in from) into[key as keyof RemovalCounts] += from[key as keyof RemovalCounts] ?? 0;
}

/** Trims a log in memory: the result carries the trimmed lines. */
export function trimSession(path: string, overrides?: Partial<TrimOptions>, target?: TrimTarget & { writer?: undefined }): Promise<TrimResult & { lines: Buffer[] }>;
/** Trims a log into a writer (no line is kept in memory): the result carries no lines. */
export function trimSession(path: string, overrides: Partial<TrimOptions>, target: TrimTarget): Promise<TrimResult>;
export async function trimSession(path: string, overrides: Partial<TrimOptions> = {}, target: TrimTarget = {}): Promise<TrimResult> {
  // Not counting only, the whole result is made.
  return (await runTrim(path, overrides, target, false)) as TrimResult;
}

/**
 * What a trim of `path` removes, counted in memory for an analysis: the same passes and counts as
 * trimSession, but the output is neither kept, modelled as Claude Code resumes it, nor verified
 * (nothing is written; modelling and verifying the output took a fifth of `cmv analyze`).
 */
export async function countTrim(path: string, overrides: Partial<TrimOptions> = {}): Promise<TrimCounts> {
  return runTrim(path, overrides, {}, true);
}

async function runTrim(path: string, overrides: Partial<TrimOptions>, target: TrimTarget, countOnly: boolean): Promise<TrimCounts | TrimResult> {
  const options = trimOptions(overrides);
  // A budget evicts from the modelled output: it is made in full.
  if (options.budget !== undefined) countOnly = false;
  if (options.budget !== undefined && target.writer) {
    throw new CmvError('INTERNAL', 'a budget trim works on the output in memory', { hint: 'trim without a writer' });
  }
  const size = target.bytes ?? (await logSize(path));
  const disk = !target.fileHolds && target.fileHoldsOnDisk ? diskChecker(target.projectDir ? await projectMove(path, target.projectDir) : undefined) : undefined;
  const fileHolds = target.fileHolds ?? disk?.holds ?? (() => false);
  const fileLines = target.fileHolds ? target.fileLines : disk?.lines;
  const asIs = options.keepHistory && options.historyAsIs === true && !target.newSessionId;
  const known = target.history?.boundary;
  const lastBoundary = options.keepHistory && !asIs ? undefined : known && known.bytes === size ? known.offset : await lastBoundaryOffset(path, size);
  const dropBefore = options.keepHistory ? undefined : lastBoundary;
  const asIsBefore = asIs ? lastBoundary : undefined;
  // What follows the last boundary (all of a log without one) is what Claude Code sends, bar dead
  // branches: its tokens are counted as pass 1 parses it, rather than read and parsed again after.
  const countFrom = options.keepHistory && !asIs ? undefined : (lastBoundary ?? 0);
  // Streamed to a writer, nothing reads the dropped lines afterwards: they are not indexed at all.
  const chainOnlyBeforeBoundary = target.writer !== undefined;
  const setup: PassOneSetup = { options, end: target.bytes, fileHolds, fileLines, dropBefore, asIsBefore, countFrom, chainOnlyBeforeBoundary };
  // The history copied as it is goes to the output first, while pass 1 reads: its bytes are known now.
  if (target.writer && asIsBefore !== undefined && asIsBefore > 0) target.writer.prefill(path, asIsBefore);
  // The history's chain as a previous trim read it, when it can stand for a prefix of what is copied.
  const kept = target.history?.kept;
  const usable = kept && asIsBefore !== undefined && kept.bytes <= asIsBefore ? kept : undefined;
  // Prefixes hashed already serve only when they cover every prefix the reader checks or keeps.
  const digests = target.history?.digests;
  // Without one, the chain handed by whoever read the same bytes, if it stands for them; else a
  // long history's chain is read in a worker thread; either while pass 1 reads what follows.
  let handedUsed = false;
  const offered = target.history?.handed;
  const part = offered && !usable && asIsBefore !== undefined && offered.bytes <= asIsBefore && digests?.has(asIsBefore) && digests.has(offered.bytes) ? offered.bytes : undefined;
  const handed =
    part !== undefined
      ? offered!.chain.then((chain) => {
          if (chain && chain.bytes === part && digests!.get(part) === chain.sha256) {
            handedUsed = true;
            return chain;
          }
          // Not the chain of these bytes: that part is read here, its digest known already.
          return readHistoryChain(path, part, digests);
        })
      : undefined;
  const inWorker =
    handed ?? (target.history && !usable && asIsBefore !== undefined && asIsBefore >= (target.history.workerBytes ?? HISTORY_WORKER_BYTES) ? historyChainInWorker(path, asIsBefore) : undefined);
  const elsewhereBytes = part ?? asIsBefore!;
  const historyElsewhere = inWorker ? { bytes: elsewhereBytes, lines: await countLinesBefore(path, elsewhereBytes), chain: inWorker } : undefined;
  const hashed = (needed: (number | undefined)[]) => (digests && needed.every((n) => n !== undefined && digests.has(n)) ? digests : undefined);
  let trimmed: TrimCounts | TrimResult | undefined;
  try {
    const reader = target.history && asIsBefore !== undefined ? new HistoryReader(usable, hashed(usable ? [usable.bytes, asIsBefore] : [asIsBefore])) : undefined;
    trimmed = await trimOnce(path, size, options, target, countOnly, { ...setup, history: reader, historyElsewhere });
  } catch (error) {
    if (!(error instanceof HistoryChanged)) throw error;
    // The log no longer starts with the bytes kept: read all of it.
    handedUsed = false;
    trimmed = await trimOnce(path, size, options, target, countOnly, { ...setup, history: new HistoryReader(undefined, hashed([asIsBefore])) });
  }
  if (trimmed && 'verify' in trimmed && trimmed.historyChain && handedUsed) trimmed.historyHanded = true;
  if (trimmed && 'verify' in trimmed && trimmed.historyHanded && part !== undefined && part < asIsBefore!) trimmed.historyHandedBytes = part;
  // The index disagreed with the boundary found before reading (a resumed path before it, a
  // boundary written some other way): read everything in full.
  return trimmed ?? (await trimOnce(path, size, options, target, countOnly, { options, end: target.bytes, fileHolds, fileLines }))!;
}

async function trimOnce(path: string, size: number, options: TrimOptions, target: TrimTarget, countOnly: boolean, setup: PassOneSetup): Promise<TrimCounts | TrimResult | undefined> {
  const spill = target.writer ? await fileSpill(`${target.writer.tempPath}.pass1`) : memorySpill();
  try {
    const first = await passOne(path, { ...setup, countOnly }, spill);
    const done = await finishTrim(path, size, options, target, countOnly, first, spill, setup.dropBefore, setup.asIsBefore);
    if (done && 'verify' in done && done.verify.ok && setup.history) {
      done.historyChain = first.historyChain ?? setup.history.chain(first.lines, first.asIsLines);
      if (first.historyChain) done.historyInWorker = true;
    }
    return done;
  } finally {
    await spill.dispose();
  }
}

async function finishTrim(
  path: string,
  size: number,
  options: TrimOptions,
  target: TrimTarget,
  countOnly: boolean,
  pass1: PassOneResult,
  spill: Spill,
  dropBefore: number | undefined,
  asIsBefore: number | undefined,
): Promise<TrimCounts | TrimResult | undefined> {
  const counts = emptyCounts();
  const { lines, originalTexts, emptied, droppedForType, spilled } = pass1;
  const malformedLinesKept = pass1.malformedLines;
  const index = sessionFromLines(path, size, lines);
  const c = index.conversation;
  // Where Claude Code bridges a missing parent by time, a dropped line hands on the entry the
  // bridge reached, not the missing uuid: the next kept line may be minutes later, out of the
  // fallback's reach, and the turns before the gap would be lost.
  const bridgedUuid = new Map<SessionEntry, string>();
  for (const [entry, target] of c.bridges) if (target.uuid) bridgedUuid.set(entry, target.uuid);
  const linkOf = (entry: SessionEntry) => bridgedUuid.get(entry) ?? entry.parentUuid;
  const droppedParent = new Map<string, string | null | undefined>();
  for (const entry of [...droppedForType.map(([e]) => e), ...emptied.keys()]) if (entry.uuid) droppedParent.set(entry.uuid, linkOf(entry));
  // Lines by their number in the file (`lines` lacks those `pass1.dropped` stands for).
  const byNumber = lines.length === pass1.lineCount ? undefined : new Map(lines.map((line) => [line.index, line]));
  const lineAt = (number: number): SessionLine => (byNumber ? byNumber.get(number)! : lines[number]);
  // The compaction the resumed leaf's chain starts from (not the last in file order: the newest
  // entry may lie before a later boundary); nothing before it is sent, bar a compaction's preserved
  // segment, which stands before the boundary and is sent after the summary: kept.
  const boundaryLine = options.keepHistory ? -1 : resumedCompactionLine(c);
  const beforeBoundary = (entry: SessionEntry) => !options.keepHistory && entry.line < boundaryLine && !METADATA_TYPES.has(entry.type) && !c.preserved.has(entry);
  if (dropBefore !== undefined) {
    // Lines were dropped unread on the strength of the boundary found first: only if the index agrees,
    // and not when the boundary keeps a segment from before it (those lines must be read).
    const boundaryOffset = boundaryLine >= 0 ? lineAt(boundaryLine).offset : -1;
    const keepsSegment = boundaryLine >= 0 && lineAt(boundaryLine).entries.some((e) => e.preservedSegment);
    if (boundaryOffset !== dropBefore || keepsSegment || c.sentMessages.some((e) => e.line < boundaryLine)) return undefined;
    // A streamed load (over 5 MiB) that stops at a line before the boundary resumes what precedes it.
    if (c.streamedLoad?.stoppedAtLine !== undefined && lineAt(c.streamedLoad.stoppedAtLine).offset < dropBefore) return undefined;
    if (pass1.dropped && !pass1.dropped.agreesWith(c)) return undefined;
  }
  if (asIsBefore !== undefined) {
    // Lines copied as they are on the strength of the boundary found first: only if the resumed
    // path starts there, and no line before it hangs from one after it (it could need re-linking).
    const resumedLine = resumedCompactionLine(c);
    if (resumedLine < 0 || lineAt(resumedLine).offset !== asIsBefore || c.sentMessages.some((e) => e.line < resumedLine)) return undefined;
    for (let i = 0; i < pass1.asIsLines; i++) {
      for (const entry of lines[i].entries) {
        const parent = typeof entry.parentUuid === 'string' ? c.byUuid.get(entry.parentUuid) : undefined;
        if (parent && parent.line >= pass1.asIsLines) return undefined;
      }
    }
  }
  counts.linesBeforeBoundary += pass1.dropped?.count ?? 0;
  for (const entry of pass1.beforeBoundary) {
    counts.linesBeforeBoundary++;
    if (entry.uuid) droppedParent.set(entry.uuid, linkOf(entry));
  }
  // A line before the boundary counts as such, whatever else would have dropped it.
  for (const [entry, reason] of droppedForType) counts[beforeBoundary(entry) ? 'linesBeforeBoundary' : reason]++;
  for (const [entry, removed] of emptied) {
    if (beforeBoundary(entry)) {
      counts.linesBeforeBoundary++;
    } else {
      counts.emptiedLines++;
      addCounts(counts, removed);
    }
  }

  // Sent entries in file order: the order their tokens are reported in.
  const sentOrder = [...c.sentMessages].sort((a, b) => a.line - b.line || a.record - b.record);
  const toolNames = toolNamesOf(index);
  const strippedBytes = (entry: SessionEntry): Buffer | undefined => {
    const at = pass1.spillIndexOf.get(entry);
    return at === undefined ? undefined : spill.at(at);
  };
  const lastResponse = [...c.responses].reverse().find((r) => r.usage && !r.synthetic && (!r.isSidechain || c.isSubagentTranscript));
  const usageLines = new Set(lastResponse?.entries ?? []);
  const todoLists = todoListRewrites(pass1, new Set(c.sentMessages));
  const appliedEdits = appliedEditRewrites(pass1.editCalls.values(), new Set(c.sentMessages), options.threshold);
  const supersededResults = supersededRewrites(pass1.supersedableCalls, new Set(c.sentMessages)).rewrites;
  const supersededInputs = pass1.superseded.rewrites(c.sentMessages);
  // Records rewritten in pass 2, by entry: their tokens are counted again.
  const rewritten = new Map<SessionEntry, JsonObject>();
  const inheritedDangling = c.danglingParents.map((e) => e.uuid ?? '');
  const newSessionId = target.newSessionId;
  const newSessionIdJson = newSessionId ? JSON.stringify(newSessionId) : undefined;

  // Pass 2 (and the repairs of pass 3) as lines leave the spill: a line is written once its
  // parent is settled. Lines whose parent comes later in the file, and the last response (whose
  // usage depends on the whole trim), wait in a queue, and so does everything after them, to
  // keep the file's order.
  const seen = new Set<string>();
  const queue: OutputItem[] = [];
  const memory: Buffer[] | undefined = target.writer ? undefined : [];
  // The output as Claude Code will read it, modelled from the exact bytes written: verified
  // before anything is committed, without reading the file back.
  const outLines: SessionLine[] = [];
  const outTexts = new Map<SessionEntry, TextDigest[]>();
  let outBytes = 0;
  let outLineCount = 0;

  const resolveParent = (parent: string | null | undefined): string | null | undefined => {
    if (typeof parent !== 'string' || !droppedParent.has(parent)) return parent;
    const visited = new Set<string>();
    while (typeof parent === 'string' && droppedParent.has(parent) && !visited.has(parent)) {
      visited.add(parent);
      parent = droppedParent.get(parent);
    }
    return parent;
  };
  // A kept line bridged to a dropped entry is linked to what that entry hands on.
  const keptLinkOf = (entry: SessionEntry): string | null | undefined => {
    const bridged = bridgedUuid.get(entry);
    return bridged !== undefined && droppedParent.has(bridged) ? bridged : entry.parentUuid;
  };
  const recordOf = (item: OutputItem): JsonObject => (item.record ??= parseRecords(item.bytes)[0] as JsonObject);
  const waits = (item: OutputItem): boolean => {
    if (!item.entry) return false;
    if (usageLines.has(item.entry)) return true;
    const parent = resolveParent(keptLinkOf(item.entry));
    // A parent among the lines copied as they are is written already.
    const parentEntry = typeof parent === 'string' ? c.byUuid.get(parent) : undefined;
    return parentEntry !== undefined && parentEntry.line >= pass1.asIsLines && !seen.has(parent as string);
  };
  const derive: DerivedMark | undefined = target.derive ? { ...target.derive, from: index.facts.sessionId } : undefined;
  const emit = async (item: OutputItem): Promise<void> => {
    outLineCount++;
    const entry = item.entry;
    if (derive && entry?.type === 'assistant' && entry.usage && deriveRecord(recordOf(item), derive)) {
      item.changed = true;
      counts.usageRewritten++;
    }
    const lineIndex = outLines.length;
    let bytes = item.bytes;
    let entries: SessionEntry[];
    let status: SessionLine['status'] = 'entry';
    if (entry) {
      // Chain links and ids are rewritten in place: no parse, no re-serialisation.
      const rewrites = new Map<string, string>();
      let parentUuid = keptLinkOf(entry);
      if (typeof parentUuid === 'string' && droppedParent.has(parentUuid)) {
        const resolved = resolveParent(parentUuid);
        parentUuid = resolved === undefined ? null : resolved;
        rewrites.set('parentUuid', JSON.stringify(parentUuid));
        counts.relinkedParents++;
        // A parent already lost before the file began (a partial log) stays lost: Claude Code
        // resumes that unchanged, while a null here could cut the chain.
        if (typeof resolved === 'string' && !c.byUuid.has(resolved) && entry.uuid) inheritedDangling.push(entry.uuid);
      }
      const sessionId = newSessionId && entry.sessionId && entry.sessionId !== newSessionId ? newSessionId : entry.sessionId;
      if (sessionId !== entry.sessionId) rewrites.set('sessionId', newSessionIdJson!);
      if (countOnly) {
        // Only the size is wanted: a rewritten chain link or id barely moves it, and no token count.
        outBytes += bytes.length + 1;
        return;
      }
      const spliced = !item.record && rewrites.size > 0 ? withTopLevelValues(bytes, rewrites) : undefined;
      if (item.record || (rewrites.size > 0 && !spliced)) {
        const record = recordOf(item);
        if (rewrites.has('parentUuid')) record.parentUuid = parentUuid;
        if (rewrites.has('sessionId')) record.sessionId = sessionId;
        bytes = Buffer.from(jsonText(record));
      } else if (spliced) {
        bytes = spliced;
      }
      if (item.changed || (bytes !== item.bytes && !spliced)) {
        // A line this trim wrote: model it from its bytes.
        const parsed = parseWhole(bytes, lineIndex);
        entries = parsed.entries;
        status = parsed.status;
        if (parsed.record) for (const out of entries) if (hasTexts(out)) outTexts.set(out, textsOfRecord(parsed.record, out).map(digestText));
      } else {
        // The original bytes, or only chain links and ids rewritten: the entry as read, moved.
        const out: SessionEntry = { ...entry, line: lineIndex, parentUuid, sessionId };
        entries = [out];
        const texts = originalTexts.get(entry);
        if (texts) outTexts.set(out, texts);
      }
    } else {
      if (countOnly) {
        outBytes += bytes.length + 1;
        return;
      }
      const parsed = parseLine(bytes, lineIndex);
      entries = parsed.entries;
      status = parsed.status;
    }
    outLines.push({ index: lineIndex, offset: outBytes, bytes: memory ? bytes : undefined, length: bytes.length, terminated: true, status, entries });
    outBytes += bytes.length + 1;
    if (memory) memory.push(bytes);
    else {
      await target.writer!.write(bytes);
      await target.writer!.write(NEWLINE);
    }
  };
  let at = 0;
  const push = async (item: OutputItem): Promise<void> => {
    if (queue.length > 0 || waits(item)) queue.push(item);
    else await emit(item);
  };

  const writer = target.writer;
  // A trim read again in full after all (the index disagreed with the boundary) writes its whole output.
  if (writer && writer.prefilled > 0 && !(pass1.asIsLines > 0 && writer.prefilled === asIsBefore)) await writer.rewind();
  if (pass1.asIsLines > 0) {
    // The history copied as it is: its bytes read again in large pieces (pass 1 kept none), its
    // lines modelled as pass 1 read them. A writer has them copied in (prefill): runTrim started
    // that while pass 1 read.
    const prefix = lines.slice(0, pass1.asIsLines);
    for (const line of prefix) {
      outLines.push({ ...line, terminated: true, entries: line.entries.map((entry) => ({ ...entry })) });
    }
    outBytes = asIsBefore!;
    if (writer) {
      if (writer.prefilled === 0) writer.prefill(path, outBytes);
    } else {
      const handle = await open(path, 'r');
      try {
        const bytes = Buffer.allocUnsafe(outBytes);
        await handle.read(bytes, 0, outBytes, 0);
        prefix.forEach((line, i) => {
          memory!.push(bytes.subarray(line.offset, line.offset + line.length));
          outLines[i].bytes = memory![i];
        });
      } finally {
        await handle.close();
      }
    }
  }

  // What pass 2 makes of one spilled line: the item to write, or undefined when it is dropped.
  const passTwoItem = (bytes: Buffer, line: (typeof spilled)[number]): OutputItem | undefined => {
    const entry = line.entry;
    if (!entry) return { bytes, changed: false };
    if (entry.uuid) seen.add(entry.uuid);
    if (beforeBoundary(entry)) {
      counts.linesBeforeBoundary++;
      if (entry.uuid) droppedParent.set(entry.uuid, linkOf(entry));
      return undefined;
    }
    if (line.removed) addCounts(counts, line.removed);
    const rewrite = todoLists.rewrites.get(entry);
    const edits = appliedEdits.get(entry);
    const supersede = supersededResults.get(entry);
    const later = supersededInputs.get(entry);
    if (rewrite || edits || supersede || later) {
      const record = parseRecords(bytes)[0] as JsonObject;
      const todoChanged = rewrite ? rewrite(record) : false;
      const editsStubbed = edits ? edits(record) : 0;
      counts.toolInputsStubbed += editsStubbed;
      const resultsSuperseded = supersede ? supersede(record) : 0;
      counts.supersededResults += resultsSuperseded;
      const laterStubbed = later ? later(record) : { texts: 0, plans: 0, repointed: 0, quoted: 0 };
      counts.supersededTextsStubbed += laterStubbed.texts;
      counts.plansStubbed += laterStubbed.plans;
      // A pointer back to a text that went now reads as the applied edit's replaced text.
      counts.repeatedTextsStubbed -= laterStubbed.repointed;
      counts.toolInputsStubbed += laterStubbed.repointed;
      counts.repeatedTextsStubbed += laterStubbed.quoted;
      if (todoChanged || editsStubbed > 0 || resultsSuperseded > 0 || laterStubbed.texts + laterStubbed.plans + laterStubbed.repointed + laterStubbed.quoted > 0) {
        rewritten.set(entry, record);
        return { entry, bytes, changed: true, record };
      }
    }
    return { entry, bytes, changed: line.changed };
  };
  if (countOnly) {
    // Counting only, nothing waits on the disk: the spill (in memory) is gone through without an
    // await per line, and a line's emit only counts (as emit does when counting).
    const countEmit = (item: OutputItem): void => {
      outLineCount++;
      const entry = item.entry;
      if (entry) {
        const parentUuid = keptLinkOf(entry);
        if (typeof parentUuid === 'string' && droppedParent.has(parentUuid)) {
          const resolved = resolveParent(parentUuid);
          counts.relinkedParents++;
          if (typeof resolved === 'string' && !c.byUuid.has(resolved) && entry.uuid) inheritedDangling.push(entry.uuid);
        }
      }
      outBytes += item.bytes.length + 1;
    };
    const passTwo = (): void => {
      for (let at = 0; at < spilled.length; at++) {
        const item = passTwoItem(spill.at(at), spilled[at]);
        if (!item) continue;
        if (queue.length > 0 || waits(item)) queue.push(item);
        else countEmit(item);
      }
    };
    passTwo();
    for (const item of queue.splice(0)) countEmit(item);
  } else {
    for await (const bytes of spill.lines()) {
      const item = passTwoItem(bytes, spilled[at++]);
      if (item) await push(item);
    }
  }
  counts.todoListsShortened = todoLists.shortened;

  // Tokens of what Claude Code sends, as it was and as trimmed: counted in pass 1 where it could,
  // otherwise read again (only the sent lines, which the context window bounds).
  const before = newBreakdown();
  const after = newBreakdown();
  const reader = lineReader(path);
  // A function of its own, so that its loop, once hot, is optimised without the rest of finishTrim.
  const countSent = (): void => {
    for (const entry of sentOrder) {
      let counted = pass1.tokens.get(entry);
      const again = rewritten.get(entry);
      const isAssistant = entry.type === 'assistant';
      if (again) {
        if (countOnly) {
          // Counting only, long texts are estimated (estimate.ts).
          const counter = new StrippedRecordCounter(isAssistant, toolNames);
          counted = counter.after(again, counted?.before ?? counter.before(reader.record(lineAt(entry.line), entry.record)));
        } else {
          const original = counted?.before ?? recordTokens(isAssistant, reader.record(lineAt(entry.line), entry.record), toolNames);
          counted = { before: original, after: recordTokens(isAssistant, again, toolNames) };
        }
      } else if (!counted) {
        const stripped = strippedBytes(entry);
        const record = reader.record(lineAt(entry.line), entry.record);
        if (countOnly && (stripped || emptied.has(entry))) {
          const counter = new StrippedRecordCounter(isAssistant, toolNames);
          const original = counter.before(record);
          counted = counter.after(emptied.has(entry) ? null : (JSON.parse(stripped!.toString('utf8')) as JsonObject), original);
        } else {
          // Counting only, long texts are estimated (estimate.ts).
          const original = recordTokens(isAssistant, record, toolNames, countOnly ? estimatingCounter : undefined);
          counted = { before: original, after: emptied.has(entry) ? null : stripped ? recordTokens(isAssistant, JSON.parse(stripped.toString('utf8')) as JsonObject, toolNames) : original };
        }
      }
      addCounted(before, entry, counted.before);
      if (counted.after) addCounted(after, entry, counted.after);
    }
  };
  try {
    countSent();
  } finally {
    reader.close();
  }

  // The usage Claude Code reads on resume to decide whether to compact at once: the trimmed
  // prefix, all uncached, so a trimmed log does not look as full as its original.
  const removedTokens = before.total - after.total;
  if (countOnly) {
    return {
      input: { path, bytes: size, tokens: before.total, lines: pass1.lineCount },
      output: { bytes: outBytes, tokens: after.total, lines: outLineCount, sessionId: newSessionId ?? index.facts.sessionId },
      reduction: { tokens: fraction(before.total - after.total, before.total), bytes: fraction(size - outBytes, size) },
      removed: counts,
      index,
      tokens: { before, after },
    };
  }
  // A copy's usage is all zero (derive): it claims no context, and no spend.
  if (lastResponse?.usage && removedTokens > 0 && !derive) {
    const estimate = Math.max(0, promptTokens(lastResponse.usage) - removedTokens);
    for (const item of queue) {
      if (!item.entry || !usageLines.has(item.entry)) continue;
      const usage = (recordOf(item).message as JsonObject | undefined)?.usage as JsonObject | undefined;
      if (!usage) continue;
      usage.input_tokens = estimate;
      usage.cache_creation_input_tokens = 0;
      usage.cache_read_input_tokens = 0;
      if (usage.cache_creation && typeof usage.cache_creation === 'object') usage.cache_creation = { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 };
      item.changed = true;
      counts.usageRewritten++;
    }
  }
  for (const item of queue) await emit(item);

  // The original as each client resumes it (the same entries, another conversation model).
  const factsFor = (client: ClientModel): OriginalFacts => {
    const model = client === c.client ? c : buildConversation(lines, { client, bytes: size, from: c });
    const onActivePath = new Set(model.activePath);
    const sentSet = new Set(model.sentMessages);
    return {
      texts: clientTexts(model, (e) => originalTexts.get(e)),
      malformedLines: malformedLinesKept.length,
      pairedToolIds: model.toolPairs.filter((p) => sentSet.has(p.use) || onActivePath.has(p.use)).map((p) => p.id),
      unpairedToolIds: [...model.unpairedToolUses, ...model.unpairedToolResults].map((t) => t.id),
      danglingUuids: inheritedDangling,
      chainStarts: chainStartsOf(model),
      copiedLines: pass1.asIsLines,
      preserved: preservedOf(model),
    };
  };
  const originalIds = new Set(c.entries.filter((e) => e.sessionId && !e.isSidechain).map((e) => e.sessionId));
  const sessionIds = newSessionId ? 1 : originalIds.size;

  let trimmed = sessionFromLines(path, outBytes, outLines);
  // The trim must hold for every client cmv knows: each resumes the output as it resumed the original.
  const verifyAll = (textsOf?: (entry: SessionEntry) => TextDigest[] | undefined): VerifyReport =>
    mergeClientReports(
      CLIENT_MODELS.map((client) => {
        const out = asResumedBy(trimmed, client);
        const texts = textsOf ? clientTexts(out.conversation, textsOf) : undefined;
        return { client, report: verifyAgainst(factsFor(client), out, sessionIds, texts) };
      }),
    );
  const trimmedTexts = (e: SessionEntry): TextDigest[] | undefined => outTexts.get(e);
  let verify: VerifyReport;
  let budget: BudgetReport | undefined;
  let afterTokens = after.total;
  if (memory) {
    let evicted = false;
    if (options.budget !== undefined) {
      const eviction = evictToBudget(trimmed, options.budget);
      budget = eviction.report;
      if (eviction.changed.size > 0) {
        for (const [lineIndex, record] of eviction.changed) memory[lineIndex] = Buffer.from(jsonText(record));
        trimmed = sessionOfLines(path, memory);
        outBytes = memory.reduce((n, l) => n + l.length + 1, 0);
        evicted = true;
      }
      afterTokens = budget.tokensAfter;
    }
    // After an eviction the texts are read again from the evicted lines.
    verify = evicted ? verifyAll() : verifyAll(trimmedTexts);
  } else {
    // The output is synced while it is verified (from the bytes written, not the file).
    const finishing = target.writer!.finish();
    finishing.catch(() => {}); // awaited below
    verify = verifyAll(trimmedTexts);
    await finishing;
    const written = (await stat(target.writer!.tempPath)).size;
    if (written !== outBytes) verify = { ...verify, ok: false, faults: [...verify.faults, { kind: 'malformed-line', message: `wrote ${written} bytes, expected ${outBytes}` }] };
  }
  return {
    input: { path, bytes: size, tokens: before.total, lines: pass1.lineCount },
    output: { bytes: outBytes, tokens: afterTokens, lines: outLines.length, sessionId: newSessionId ?? trimmed.facts.sessionId },
    reduction: { tokens: fraction(before.total - afterTokens, before.total), bytes: fraction(size - outBytes, size) },
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

/**
 * Superseded todo lists Claude Code sends: each call but the first and the last shows only what it
 * changed (todo-lists.ts), and its result says so. What to rewrite, by entry (the call's line and
 * its result's line), and how many lists this trim shortens (not those an earlier trim did).
 */
function todoListRewrites(pass1: PassOneResult, sent: Set<SessionEntry>): { rewrites: Map<SessionEntry, (record: JsonObject) => boolean>; shortened: number } {
  // One record per line (a glued line is copied as it is, never rewritten).
  const calls = pass1.todoCalls.filter((call) => sent.has(call.use) && call.result && sent.has(call.result) && call.use.record === 0 && call.result.record === 0);
  const plan = planTodoChanges(calls);
  // The todos each call keeps, and the calls whose result gains the note, by the entry of their line.
  const todosAt = new Map<SessionEntry, Map<string, unknown[]>>();
  const notedAt = new Map<SessionEntry, Set<string>>();
  let shortened = 0;
  for (const call of calls) {
    const todos = plan.get(call.toolId);
    if (!todos || call.shortened) continue;
    shortened++;
    todosAt.set(call.use, (todosAt.get(call.use) ?? new Map()).set(call.toolId, todos));
    notedAt.set(call.result!, (notedAt.get(call.result!) ?? new Set()).add(call.toolId));
  }
  // Returns whether the record changed.
  const rewrite = (record: JsonObject, todos: Map<string, unknown[]> | undefined, noted: Set<string> | undefined): boolean => {
    let changed = false;
    for (const block of contentBlocks(record)) {
      if (block.type === 'tool_use' && todos?.has(String(block.id)) && block.input && typeof block.input === 'object') {
        (block.input as JsonObject).todos = todos.get(String(block.id));
        changed = true;
      } else if (block.type === 'tool_result' && noted?.has(String(block.tool_use_id))) {
        if (typeof block.content === 'string') block.content = `${SHORTENED_TODO_NOTE}\n${block.content}`;
        else if (Array.isArray(block.content)) block.content = [{ type: 'text', text: SHORTENED_TODO_NOTE }, ...block.content];
        else continue;
        changed = true;
      }
    }
    return changed;
  };
  const rewrites = new Map<SessionEntry, (record: JsonObject) => boolean>();
  for (const entry of new Set([...todosAt.keys(), ...notedAt.keys()])) rewrites.set(entry, (record) => rewrite(record, todosAt.get(entry), notedAt.get(entry)));
  return { rewrites, shortened };
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
