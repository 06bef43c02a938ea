// Deterministic compaction, the three-zone seed without a model: zone C becomes the resume block,
// written as Claude Code records its own compactions (a `compact_boundary` system line with a
// null parent, then an `isCompactSummary` user line); zone B is kept with tool output stubbed as
// the trim stubs it; zone A is kept exactly. Older lines stay in the file, as Claude Code keeps
// them; it never sends what lies before a boundary.

import type { Session } from '../session/session.js';
import type { SessionEntry } from '../session/entry.js';
import { parseRecords } from '../session/entry.js';
import { sentTexts, type JsonObject, type MessageText } from '../session/payload.js';
import { stripMessageRecord, type StripContext } from '../trim/strip.js';
import { emptyCounts, trimOptions } from '../trim/options.js';
import { sessionOfLines } from '../trim/trim.js';
import { tokenBreakdown } from '../tokens/breakdown.js';
import { promptTokens } from '../tokens/usage.js';
import { deriveLine, derivedTag, type DerivedMark } from '../session/derived.js';
import { CmvError } from '../errors.js';
import { buildGraph } from './build-graph.js';
import { buildResume, type ResumeBlock, type ResumeTier } from './resume-block.js';
import { findZones } from './compact-zones.js';
import { checkCompaction, type CompactionCheck } from './compact-check.js';
import { SUMMARY_PREFIX, summaryRecords } from './summary-records.js';
import { carriedFromSummary } from './rules/summary-rules.js';
import { contentText } from '../session/payload.js';

export interface CompactOptions {
  /** Messages of zone A, kept exactly (default 5). */
  keep?: number;
  /** Zone B tool results longer than this are stubbed (the trim's threshold, default 1000). */
  threshold?: number;
  /** The summary's tier (default full) or budget. */
  tier?: ResumeTier;
  budget?: number;
  /** Rewrite every sessionId: the output becomes a new session. */
  newSessionId?: string;
}

export interface ZoneFigures {
  messages: number;
  tokens: number;
}

export interface CompactResult {
  lines: Buffer[];
  summary: ResumeBlock;
  zones: { c: ZoneFigures; b: ZoneFigures & { toolResultsStubbed: number }; a: ZoneFigures };
  input: { tokens: number };
  output: { tokens: number; sessionId?: string };
  boundaryUuid: string;
  summaryUuid: string;
  check: CompactionCheck;
  compacted: Session;
}

export { SUMMARY_PREFIX };

export function compactSession(session: Session, options: CompactOptions = {}): CompactResult {
  const keep = options.keep ?? 5;
  const zones = findZones(session, keep);
  if (zones.c.length === 0) {
    throw new CmvError('BAD_INPUT', `nothing to compact: the last ${keep} messages and the last prompt's turn are the whole conversation`, {
      hint: 'lower --keep, or use `cmv trim` to stub tool output without summarising',
    });
  }
  const firstKept = zones.b[0] ?? zones.a[0];
  const record = (entry: SessionEntry): JsonObject => parseRecords(session.lines[entry.line].bytes!)[entry.record] as JsonObject;
  const keptRecord = record(firstKept);
  const logicalParent = typeof keptRecord.parentUuid === 'string' ? keptRecord.parentUuid : zones.c[zones.c.length - 1].uuid;
  const parentEntry = logicalParent ? session.conversation.byUuid.get(logicalParent) : undefined;

  const summary = buildResume(buildGraph(session), { tier: options.tier ?? (options.budget ? undefined : 'full'), budget: options.budget });
  const inputTokens = tokenBreakdown(session).total;
  const lastUsage = [...session.conversation.responses].reverse().find((r) => r.usage && !r.synthetic && !r.isSidechain)?.usage;
  const {
    boundary,
    summary: summaryRecord,
    boundaryUuid,
    summaryUuid,
  } = summaryRecords({
    block: summary,
    context: keptRecord,
    logicalParentUuid: logicalParent ?? null,
    timestamp: (parentEntry?.timestamp ?? firstKept.timestamp) as string | undefined,
    preTokens: lastUsage ? promptTokens(lastUsage) : inputTokens,
    transcriptPath: session.path,
    seed: `${session.facts.sessionId ?? ''}\u0000${logicalParent ?? ''}\u0000${firstKept.uuid ?? ''}`,
    carried: carriedSummary(session, firstKept, record),
  });

  // Zone B: stub tool output as the trim does; a line left empty goes, its children re-linked.
  const zoneB = new Set(zones.b);
  const summarisedCalls = new Set(zones.c.flatMap((e) => e.blocks.filter((b) => b.type === 'tool_use' && b.toolId).map((b) => b.toolId!)));
  const strip: StripContext = { options: trimOptions({ threshold: options.threshold }), counts: emptyCounts(), calls: new Map(), fileHolds: () => false };
  const dropped = new Map<string, unknown>();
  const out: Buffer[] = [];
  for (const line of session.lines) {
    if (line.status === 'blank') continue;
    const entry = line.entries[0];
    if (entry === firstKept) out.push(Buffer.from(JSON.stringify(boundary)), Buffer.from(JSON.stringify(summaryRecord)));
    if (line.status !== 'entry' || !entry) {
      out.push(line.bytes!);
      continue;
    }
    let rec: JsonObject | undefined;
    if (zoneB.has(entry)) {
      rec = record(entry);
      // A prompt typed while tools ran shares its line with their results; those calls are summarised.
      const dropsResults = entry.blocks.some((b) => b.type === 'tool_result' && b.toolId !== undefined && summarisedCalls.has(b.toolId));
      if (dropsResults) {
        const message = rec.message as JsonObject;
        message.content = (message.content as JsonObject[]).filter((b) => !(b.type === 'tool_result' && summarisedCalls.has(String(b.tool_use_id))));
        delete rec.toolUseResult;
      }
      const result = stripMessageRecord(rec, strip);
      if (result.emptied) {
        if (entry.uuid) dropped.set(entry.uuid, rec.parentUuid);
        continue;
      }
      if (!result.changed && !dropsResults) rec = undefined;
    }
    if (entry === firstKept || (typeof entry.parentUuid === 'string' && dropped.has(entry.parentUuid))) {
      rec ??= record(entry);
      rec.parentUuid = entry === firstKept ? summaryUuid : resolveDropped(entry.parentUuid as string, dropped);
    }
    out.push(rec ? Buffer.from(JSON.stringify(rec)) : line.bytes!);
  }

  // The output is always a copy beside its original: its responses are marked so, with zero
  // usage (session/derived.ts), which also tells Claude Code the resumed context is not full.
  const mark: DerivedMark = { by: 'compact', from: session.facts.sessionId, tag: derivedTag(options.newSessionId ?? summaryUuid) };
  for (let i = 0; i < out.length; i++) out[i] = deriveLine(out[i], mark);
  if (options.newSessionId) {
    for (let i = 0; i < out.length; i++) {
      const [value] = parseRecords(out[i]);
      if (value && typeof value === 'object' && 'sessionId' in value) out[i] = Buffer.from(JSON.stringify({ ...(value as JsonObject), sessionId: options.newSessionId }));
    }
  }
  const compacted = sessionOfLines(session.path, out);
  const tokensOf = (entries: SessionEntry[]) => (entries.length ? tokenBreakdown(session, entries).total : 0);
  return {
    lines: out,
    summary,
    zones: {
      c: { messages: zones.counts.c, tokens: tokensOf(zones.c) },
      b: { messages: zones.counts.b, tokens: tokensOf(zones.b), toolResultsStubbed: strip.counts.toolResultsStubbed },
      a: { messages: zones.counts.a, tokens: tokensOf(zones.a) },
    },
    input: { tokens: inputTokens },
    output: { tokens: tokenBreakdown(compacted).total, sessionId: options.newSessionId ?? compacted.facts.sessionId },
    boundaryUuid,
    summaryUuid,
    check: checkCompaction(compacted, summaryUuid, keptTexts(session, [...zones.b, ...zones.a])),
    compacted,
  };
}

/**
 * What Claude Code's own last compaction summary before the kept part listed: its files, errors
 * and pending steps go into the new summary as it wrote them, so the compaction loses none of them.
 */
function carriedSummary(session: Session, firstKept: SessionEntry, record: (entry: SessionEntry) => JsonObject): string | undefined {
  const earlier = session.conversation.entries.filter((e) => e.isCompactSummary && e.line < firstKept.line).at(-1);
  if (!earlier) return undefined;
  const text = contentText((record(earlier).message as JsonObject | undefined)?.content);
  return carriedFromSummary(text);
}

/** The texts zones B and A must keep verbatim, in order. */
function keptTexts(session: Session, entries: SessionEntry[]): MessageText[] {
  const uuids = new Set(entries.map((e) => e.uuid));
  return sentTexts(session).filter((t) => uuids.has(t.uuid));
}

function resolveDropped(parent: string, dropped: Map<string, unknown>): string | null {
  let current: unknown = parent;
  const seen = new Set<string>();
  while (typeof current === 'string' && dropped.has(current) && !seen.has(current)) {
    seen.add(current);
    current = dropped.get(current);
  }
  return typeof current === 'string' ? current : null;
}
