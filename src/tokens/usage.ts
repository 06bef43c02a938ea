// Usage accounting from the log's own figures: one count per API response (never a sum of its
// split lines), Claude Code's `<synthetic>` error placeholders excluded.

import type { Conversation, ResponseGroup } from '../session/conversation.js';
import type { Usage } from '../session/entry.js';

export interface UsageSummary {
  apiCalls: number;
  /** Prompt size of the last call on the main chain: input + cache writes + cache reads. */
  lastContextTokens: number;
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  cacheWrite5mTokens: number;
  cacheWrite1hTokens: number;
  outputTokens: number;
}

export function promptTokens(usage: Usage): number {
  return usage.inputTokens + usage.cacheCreationTokens + usage.cacheReadTokens;
}

/** API responses that carry real usage figures, in file order (not those cmv copied from another log). */
export function billedResponses(conversation: Pick<Conversation, 'responses' | 'isSubagentTranscript'>, includeSidechains = true): ResponseGroup[] {
  return conversation.responses.filter((r) => r.usage && !r.synthetic && !r.derived && (includeSidechains || !r.isSidechain || conversation.isSubagentTranscript));
}

export function summariseUsage(conversation: Pick<Conversation, 'responses' | 'isSubagentTranscript'>): UsageSummary {
  const summary: UsageSummary = {
    apiCalls: 0,
    lastContextTokens: 0,
    inputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    cacheWrite5mTokens: 0,
    cacheWrite1hTokens: 0,
    outputTokens: 0,
  };
  for (const response of billedResponses(conversation)) {
    const u = response.usage!;
    summary.apiCalls++;
    summary.inputTokens += u.inputTokens;
    summary.cacheReadTokens += u.cacheReadTokens;
    summary.cacheWriteTokens += u.cacheCreationTokens;
    summary.cacheWrite5mTokens += u.cacheCreation5mTokens ?? 0;
    summary.cacheWrite1hTokens += u.cacheCreation1hTokens ?? 0;
    summary.outputTokens += u.outputTokens;
    if (!response.isSidechain || conversation.isSubagentTranscript) summary.lastContextTokens = promptTokens(u);
  }
  return summary;
}
