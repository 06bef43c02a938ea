// `cmv stats`: where the tokens of one session go, and what the log itself says about it.
// The field names are read by other tools: keep them.

import type { Session } from '../session/session.js';
import { tokenBreakdown, type TokenKind } from '../tokens/breakdown.js';
import { summariseUsage, type UsageSummary } from '../tokens/usage.js';
import { calibrate, type Calibration } from '../tokens/calibration.js';

export interface SessionStats {
  path: string;
  sessionId?: string;
  bytes: number;
  lines: number;
  malformedLines: number[];
  gluedLines: number[];
  entries: Record<string, number>;
  unknownTypes: Record<string, number>;
  messages: {
    user: number;
    assistant: number;
    toolUses: number;
    toolResults: number;
    unpairedToolUses: number;
    unpairedToolResults: number;
  };
  /** Messages Claude Code would send on resume. */
  activeMessages: number;
  compactions: number;
  subagents: number;
  isSubagentTranscript: boolean;
  cwd?: string;
  versions: string[];
  models: string[];
  tokens: {
    total: number;
    byKind: Record<TokenKind, number>;
    byTool: Record<string, number>;
  };
  usage: UsageSummary;
  calibration: Calibration;
}

export function sessionStats(session: Session): SessionStats {
  const c = session.conversation;
  const entries: Record<string, number> = {};
  let user = 0;
  let assistant = 0;
  let toolUses = 0;
  let toolResults = 0;
  for (const entry of [...c.entries, ...c.gluedEntries]) {
    entries[entry.type] = (entries[entry.type] ?? 0) + 1;
    if (entry.type === 'user') user++;
    if (entry.type === 'assistant') assistant++;
    for (const block of entry.blocks) {
      if (block.type === 'tool_use') toolUses++;
      else if (block.type === 'tool_result') toolResults++;
    }
  }
  const breakdown = tokenBreakdown(session);
  // 1.0.x compacted without a boundary line: its summaries are the only trace.
  const compactSummaries = c.entries.filter((e) => e.isCompactSummary).length;
  return {
    path: session.path,
    sessionId: session.facts.sessionId,
    bytes: session.bytes,
    lines: session.lines.length,
    malformedLines: session.malformedLines,
    gluedLines: session.gluedLines,
    entries,
    unknownTypes: session.unknownTypes,
    messages: {
      user,
      assistant,
      toolUses,
      toolResults,
      unpairedToolUses: c.unpairedToolUses.length,
      unpairedToolResults: c.unpairedToolResults.length,
    },
    activeMessages: c.sentMessages.length,
    compactions: Math.max(c.compactBoundaries.length, compactSummaries),
    subagents: c.sidechains.size + session.subagentFiles.length,
    isSubagentTranscript: c.isSubagentTranscript,
    cwd: session.facts.cwd,
    versions: session.facts.versions,
    models: session.facts.models,
    tokens: { total: breakdown.total, byKind: breakdown.byKind, byTool: breakdown.byTool },
    usage: summariseUsage(c),
    calibration: calibrate(c, breakdown),
  };
}
