// The API calls of a session as cost inputs: from the log's own usage figures when it has them
// (one per API response, `<synthetic>` placeholders excluded), else synthesised from the tokenizer's
// counts of the messages, calibrated to API tokens, with the cache behaving as its TTL says.

import type { Conversation } from '../session/conversation.js';
import type { TokenBreakdown } from '../tokens/breakdown.js';
import { billedResponses } from '../tokens/usage.js';
import type { Usage } from '../session/entry.js';

export interface ApiCall {
  /** The model the log names for this response. */
  model?: string;
  /** Milliseconds since the epoch, when the log has a timestamp. */
  atMs?: number;
  /** A subagent's call (its own prompt and cache), not the main conversation's. */
  sidechain: boolean;
  /** Line of the response's first entry: the call saw every message above it. */
  line: number;
  /** `message id:request id`, as ccusage keys a response: the same response in another file is the same call. */
  key?: string;
  input: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
  cacheRead: number;
  output: number;
}

/** API tokens per tokenizer token, and the prompt the log cannot show (system prompt, tools). */
export interface TokenScale {
  ratio: number;
  overheadTokens: number;
}

/**
 * Used when a log has too few usage figures to calibrate itself: the medians of the fits over the
 * 21 corpus sessions that calibrate (ratio 0.88-2.16, overhead 14k-136k tokens).
 */
export const DEFAULT_SCALE: TokenScale = { ratio: 1.34, overheadTokens: 25_000 };

export const TTL_5M_SECONDS = 300;
export const TTL_1H_SECONDS = 3600;

export function promptOf(call: Pick<ApiCall, 'input' | 'cacheWrite5m' | 'cacheWrite1h' | 'cacheRead'>): number {
  return call.input + call.cacheWrite5m + call.cacheWrite1h + call.cacheRead;
}

export function cacheWriteOf(call: Pick<ApiCall, 'cacheWrite5m' | 'cacheWrite1h'>): number {
  return call.cacheWrite5m + call.cacheWrite1h;
}

function timeOf(timestamp: string | undefined): number | undefined {
  if (!timestamp) return undefined;
  const ms = Date.parse(timestamp);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Every billed call of the log, in file order, subagents' included. */
export function callsFromUsage(conversation: Conversation): ApiCall[] {
  const calls: ApiCall[] = [];
  for (const response of billedResponses(conversation)) {
    const u = response.usage!;
    const call: ApiCall = {
      model: response.model,
      atMs: timeOf(response.timestamp),
      sidechain: response.isSidechain && !conversation.isSubagentTranscript,
      line: response.entries[0]?.line ?? 0,
      key: response.requestId ? `${response.messageId}:${response.requestId}` : undefined,
      ...tokensOf(u),
    };
    calls.push(call);
    // The advisor's calls within the response: their own prompt on their own model, no part of the conversation's context.
    (u.advisorCalls ?? []).forEach((advisor, i) => {
      calls.push({ ...call, model: advisor.model ?? response.model, sidechain: true, key: call.key && `${call.key}:advisor${i}`, ...tokensOf(advisor) });
    });
  }
  return calls;
}

function tokensOf(u: Omit<Usage, 'advisorCalls'>): Pick<ApiCall, 'input' | 'cacheWrite5m' | 'cacheWrite1h' | 'cacheRead' | 'output'> {
  // Logs before the 5m/1h split give one figure: the 5-minute cache, Claude Code's default then.
  // A split that accounts for less than the figure (advisor responses) leaves the rest at 5 minutes.
  const oneHour = Math.min(u.cacheCreation1hTokens ?? 0, u.cacheCreationTokens);
  return { input: u.inputTokens, cacheWrite5m: u.cacheCreationTokens - oneHour, cacheWrite1h: oneHour, cacheRead: u.cacheReadTokens, output: u.outputTokens };
}

/**
 * Calls synthesised from token counts, for logs without usage: each response on the resumed path
 * saw the overhead plus every message before it, scaled to API tokens. The cache is read whenever
 * the previous call was less than a TTL earlier, and everything new is written.
 */
export function callsFromTokens(conversation: Conversation, breakdown: TokenBreakdown, scale: TokenScale, ttlSeconds = TTL_5M_SECONDS): ApiCall[] {
  const calls: ApiCall[] = [];
  let counted = 0;
  let previous: { prompt: number; atMs?: number } | undefined;
  let current: { call: ApiCall; key: string } | undefined;
  for (const { entry, tokens } of breakdown.perEntry) {
    const response = conversation.responseOf.get(entry);
    if (response && !response.synthetic && current?.key !== response.key) {
      const prompt = Math.round(scale.overheadTokens + scale.ratio * counted);
      const atMs = timeOf(response.timestamp);
      const warm = previous !== undefined && (atMs === undefined || previous.atMs === undefined || atMs - previous.atMs <= ttlSeconds * 1000);
      const read = warm ? Math.min(previous!.prompt, prompt) : 0;
      const call: ApiCall = { model: response.model, atMs, sidechain: false, line: entry.line, input: 0, cacheWrite5m: prompt - read, cacheWrite1h: 0, cacheRead: read, output: 0 };
      calls.push(call);
      current = { call, key: response.key };
      previous = { prompt, atMs };
    }
    if (response && current?.key === response.key) current.call.output += Math.round(scale.ratio * tokens);
    counted += tokens;
  }
  return calls;
}

/** The calls of the conversation Claude Code resumes: everything but inline subagents. */
export function mainCalls(calls: ApiCall[]): ApiCall[] {
  return calls.filter((c) => !c.sidechain);
}

/** The session's cache TTL: 1 hour when most cache writes used it, else 5 minutes. */
export function sessionTtlSeconds(calls: ApiCall[]): number {
  let fiveMinutes = 0;
  let oneHour = 0;
  for (const call of calls) {
    fiveMinutes += call.cacheWrite5m;
    oneHour += call.cacheWrite1h;
  }
  return oneHour > fiveMinutes ? TTL_1H_SECONDS : TTL_5M_SECONDS;
}
