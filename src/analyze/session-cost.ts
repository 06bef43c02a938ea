// The cost of one session and the break-even of trimming it: the log is read once into the
// conversation model, its messages counted once, trimmed in memory (never written), and its calls
// replayed and projected at the registry's prices (src/cost).

import type { Session } from '../session/session.js';
import type { TokenBreakdown, TokenKind } from '../tokens/breakdown.js';
import { calibrate, type Calibration } from '../tokens/calibration.js';
import { countTrim, type TrimCounts } from '../trim/trim.js';
import type { TrimOptions } from '../trim/options.js';
import { CmvError } from '../errors.js';
import { assertSessionLog as assertAnalysable } from '../session/session-check.js';

export { assertAnalysable };
export { NO_CONVERSATION } from '../session/session-check.js';
import { callsFromTokens, callsFromUsage, DEFAULT_SCALE, mainCalls, promptOf, sessionTtlSeconds, type ApiCall, type TokenScale } from '../cost/calls.js';
import { replayCalls, type Replay } from '../cost/replay.js';
import { breakEvenOf, type BreakEven } from '../cost/break-even.js';
import { paceOf, thresholdsOf, windowOf, type SessionPace, type Thresholds } from '../cost/projection.js';
import { pricingOverride, type ModelRegistry, type Resolution } from '../cost/registry.js';
import { subagentByPath } from './subagent-path.js';

export const SUBSCRIPTION_NOTE = 'On a Claude subscription (Pro, Max, Team) you pay no per-token price: there the win of a trim is context window and rate limits, not dollars.';

export interface CostOptions {
  registry: ModelRegistry;
  /** Price every call as this model instead of the log's own. */
  model?: string;
  /** 1-based number of the main call after which to trim (default: the last one, now). */
  at?: number;
  trim?: Partial<TrimOptions>;
}

export interface SessionCost extends Omit<BreakEven, 'curve'> {
  path: string;
  sessionId?: string;
  kind: 'main' | 'subagent';
  bytes: number;
  cwd?: string;
  firstTimestamp?: string;
  lastTimestamp?: string;
  model: string;
  pricedAs: string;
  modelResolution: Resolution;
  /** Set when every call was priced as a model the user named (`--model`, config `model`), not the log's own. */
  priceOverride?: string;
  /** A session cmv made from another (session/derived.ts): the copied responses are that one's spend. */
  derived?: { from?: string; by?: string; copiedResponses: number };
  /** API tokens of the prompt at the trim point, and after the trim (calibrated estimate). */
  tokens: { before: number; after: number; counted: { before: number; after: number } };
  reduction: number;
  /**
   * The fit of the tokenizer to the log's usage (or the default), and the ratio that scaled what
   * the trim removes: API tokens per counted token of the messages at the trim point.
   */
  calibration: TokenScale & { fitted: boolean; effectiveRatio: number };
  composition: { byKind: Record<TokenKind, number>; toolResultShare: number };
  /** 1-based main call the trim is made after, out of `calls`. */
  at: number | null;
  calls: number;
  pace: SessionPace;
  ttlSeconds: number;
  thresholds: Thresholds;
  replay: Replay;
  curve: BreakEven['curve'];
  subscriptionNote: string;
}

/** Reads, counts and trims `path` in memory, then prices it (the file is never written). */
export async function analyseSessionCost(path: string, options: CostOptions): Promise<SessionCost> {
  // The trim indexes and counts the log once; the pricing reads its index and counts.
  const trim = await countTrim(path, options.trim ?? {});
  assertAnalysable(trim.index);
  return costOfSession(trim.index, trim.tokens.before, trim, options);
}

function scaleOf(calibration: Calibration): TokenScale & { fitted: boolean } {
  const { ratio, overheadTokens, r2 } = calibration;
  if (ratio !== null && overheadTokens !== null && r2 !== null && r2 >= 0.8 && ratio >= 0.5 && ratio <= 3) {
    return { ratio, overheadTokens: Math.max(0, overheadTokens), fitted: true };
  }
  return { ...DEFAULT_SCALE, fitted: false };
}

/** Tokenizer tokens of the messages above `line` (all of them when undefined), and how many the trim removes. */
function countedAt(breakdown: TokenBreakdown, trim: TrimCounts, line: number | undefined): { counted: number; removed: number } {
  if (line === undefined) return { counted: trim.input.tokens, removed: Math.max(0, trim.input.tokens - trim.output.tokens) };
  const after = new Map<string, number>();
  for (const { entry, tokens } of trim.tokens.after.perEntry) if (entry.uuid) after.set(entry.uuid, tokens);
  let counted = 0;
  let removed = 0;
  for (const { entry, tokens } of breakdown.perEntry) {
    if (entry.line >= line) continue;
    counted += tokens;
    if (entry.uuid) removed += tokens - (after.get(entry.uuid) ?? 0);
  }
  return { counted, removed: Math.max(0, removed) };
}

/** Bounds of API tokens per counted token: outside them the log's figures and its messages disagree (a partial log). */
const RATIO_BOUNDS = [0.5, 2.5] as const;

function fraction(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : 0;
}

export function costOfSession(session: Session, breakdown: TokenBreakdown, trim: TrimCounts, options: CostOptions): SessionCost {
  const c = session.conversation;
  const calibration = calibrate(c, breakdown);
  const scale = scaleOf(calibration);
  const usageCalls = callsFromUsage(c);
  const source: Replay['source'] = mainCalls(usageCalls).length > 0 ? 'usage' : 'tokenizer';
  const calls: ApiCall[] = source === 'usage' ? usageCalls : callsFromTokens(c, breakdown, scale);
  const main = mainCalls(calls);
  const override = options.model ? pricingOverride(options.registry, options.model) : undefined;
  const sessionModel = override ?? options.registry.resolve(main[main.length - 1]?.model ?? session.facts.models[0]);
  const replay = replayCalls(calls, options.registry, source, override);
  const ttlSeconds = sessionTtlSeconds(main);
  const pace = paceOf(main);

  const at = options.at === undefined ? main.length - 1 : options.at - 1;
  if (options.at !== undefined && (!Number.isInteger(options.at) || at < 0 || at >= main.length)) {
    throw new CmvError('USAGE', `--at ${options.at} is not a call of this session`, {
      hint: main.length > 0 ? `give a call number from 1 to ${main.length}` : 'this log has no API calls to trim after',
    });
  }
  const boundary = c.compactBoundaries[c.compactBoundaries.length - 1];
  if (options.at !== undefined && boundary && main[at] && main[at].line < boundary.line) {
    const firstAfter = main.findIndex((call) => call.line > boundary.line) + 1;
    throw new CmvError('USAGE', `call ${options.at} comes before the session's last compaction, and a trim works on what came after it`, {
      hint: firstAfter > 0 ? `give a call from ${firstAfter} to ${main.length}` : 'trim at the end (leave out --at)',
    });
  }
  const trimmingNow = at === main.length - 1;
  const cut = countedAt(breakdown, trim, trimmingNow ? undefined : main[at + 1].line);
  const before = main[at] ? promptOf(main[at]) : Math.round(scale.overheadTokens + scale.ratio * cut.counted);
  // The log says how large the prompt was; the messages in it are that minus the system prompt and
  // tools. What the trim removes is scaled by the same ratio: API tokens per counted token, here.
  const overhead = Math.min(before, scale.overheadTokens);
  const measured = cut.counted > 0 ? (before - overhead) / cut.counted : scale.ratio;
  const effectiveRatio = measured >= RATIO_BOUNDS[0] && measured <= RATIO_BOUNDS[1] ? measured : scale.ratio;
  // Cached before the session's first call: the system prompt and tools, shared with other sessions.
  const sharedPrefix = source === 'usage' && main[0] ? Math.min(main[0].cacheRead, overhead) : 0;
  const removed = Math.min(Math.round(effectiveRatio * cut.removed), Math.max(0, before - sharedPrefix));

  const modelOf = (call: ApiCall) => (override ?? (call.model ? options.registry.resolve(call.model) : sessionModel)).info;
  const breakEven = breakEvenOf({ main, at: Math.max(0, at), removed, sharedPrefix, pace, ttlSeconds, modelOf });
  const largestPrompt = main.reduce((m, call) => Math.max(m, promptOf(call)), 0);
  const lastPrompt = main.length > 0 ? promptOf(main[main.length - 1]) : before;
  const removedAtEnd = trimmingNow ? removed : breakEven.projection[0] ? breakEven.projection[0].contextWithoutTrim - breakEven.projection[0].contextWithTrim : 0;
  const toolResults = Object.values(breakdown.byTool).reduce((a, b) => a + b, 0);
  const path = session.path;
  const copied = c.responses.filter((r) => r.derived);
  const derived = copied.length > 0 ? { from: copied[0].derived!.from, by: copied[0].derived!.by, copiedResponses: copied.length } : undefined;
  // A copy's own spend is only what was sent after it was made; its estimate from counted tokens is no spend.
  if (derived && source === 'tokenizer') replay.cost = 0;
  const isSubagent = c.isSubagentTranscript || subagentByPath(path);

  return {
    path,
    sessionId: session.facts.sessionId,
    kind: isSubagent ? 'subagent' : 'main',
    bytes: session.bytes,
    cwd: session.facts.cwd,
    firstTimestamp: session.facts.firstTimestamp,
    lastTimestamp: session.facts.lastTimestamp,
    model: sessionModel.name || sessionModel.info.id,
    pricedAs: sessionModel.info.id,
    modelResolution: sessionModel.resolution,
    priceOverride: override ? override.name : undefined,
    derived,
    tokens: { before, after: before - removed, counted: { before: trim.input.tokens, after: trim.output.tokens } },
    reduction: fraction(removed, before),
    calibration: { ...scale, effectiveRatio: Math.round(effectiveRatio * 1000) / 1000 },
    composition: { byKind: breakdown.byKind, toolResultShare: fraction(toolResults, breakdown.total) },
    at: main.length > 0 ? at + 1 : null,
    calls: main.length,
    ...breakEven,
    pace,
    ttlSeconds,
    thresholds: thresholdsOf(sessionModel.info, windowOf(sessionModel.info, largestPrompt), lastPrompt, removedAtEnd, pace.growthPerTurn),
    replay,
    subscriptionNote: SUBSCRIPTION_NOTE,
  };
}
