// The two lines Claude Code writes when it compacts a conversation, written for a resume block:
// a `system`/`compact_boundary` line with a null parent (the resumed chain starts there) and an
// `isCompactSummary` user line that carries the summary. `cmv compact` puts them in place of zone
// C; `cmv branch --with-resume` can put them in front of a branched session.

import { createHash } from 'node:crypto';
import type { JsonObject } from '../session/payload.js';
import type { ResumeBlock } from './resume-block.js';

export const SUMMARY_PREFIX = 'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\nSummary:\n';

/** Fields every line of a session carries; the new lines copy them from a line of the session. */
export const CONTEXT_FIELDS = ['userType', 'entrypoint', 'cwd', 'sessionId', 'version', 'gitBranch', 'slug'];

export interface SummaryRecordsInput {
  block: ResumeBlock;
  /** A record of the session the lines join: its cwd, sessionId, version, ... are copied. */
  context: JsonObject;
  /** The last message before the summary (Claude Code's logicalParentUuid), or null for none. */
  logicalParentUuid: string | null;
  timestamp?: string;
  /** Prompt tokens before compaction (compactMetadata.preTokens). */
  preTokens: number;
  /** Where the full history can be read, named in the summary (Claude Code names its transcript). */
  transcriptPath?: string;
  /** Seed of the two uuids: the same seed gives the same lines. */
  seed: string;
  /** What Claude Code's own earlier summary in the compacted part listed (files, errors, pending steps), kept as it said it. */
  carried?: string;
}

export interface SummaryRecords {
  boundary: JsonObject;
  summary: JsonObject;
  boundaryUuid: string;
  /** The uuid the first message after the summary must name as its parentUuid. */
  summaryUuid: string;
}

export function summaryRecords(input: SummaryRecordsInput): SummaryRecords {
  const boundaryUuid = uuidFrom(`${input.seed}\u0000compact_boundary`);
  const summaryUuid = uuidFrom(`${input.seed}\u0000compact_summary`);
  const context: JsonObject = {};
  for (const field of CONTEXT_FIELDS) if (input.context[field] !== undefined) context[field] = input.context[field];
  const boundary: JsonObject = {
    parentUuid: null,
    logicalParentUuid: input.logicalParentUuid,
    isSidechain: false,
    type: 'system',
    subtype: 'compact_boundary',
    content: 'Conversation compacted',
    isMeta: false,
    timestamp: input.timestamp,
    uuid: boundaryUuid,
    level: 'info',
    compactMetadata: { trigger: 'manual', preTokens: input.preTokens },
    ...context,
  };
  const summary: JsonObject = {
    parentUuid: boundaryUuid,
    isSidechain: false,
    type: 'user',
    message: { role: 'user', content: summaryText(input.block, input.transcriptPath, input.carried) },
    isVisibleInTranscriptOnly: true,
    isCompactSummary: true,
    uuid: summaryUuid,
    timestamp: input.timestamp,
    ...context,
  };
  return { boundary, summary, boundaryUuid, summaryUuid };
}

export function summaryText(block: ResumeBlock, transcriptPath?: string, carried?: string): string {
  const pointer = transcriptPath
    ? `\nIf you need specific details from before compaction (like exact code snippets, error messages, or content you generated), read the full transcript at: ${transcriptPath}`
    : '';
  const earlier = carried ? `\n\n${carried}` : '';
  return `${SUMMARY_PREFIX}${block.text}${earlier}\n\nThis summary was written by cmv from the session knowledge graph (no model call); the latest messages follow verbatim.${pointer}`;
}

/** A uuid (v4 layout) derived from a seed: the same session compacts to the same bytes. */
export function uuidFrom(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
