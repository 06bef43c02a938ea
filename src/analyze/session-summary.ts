// One session's line in a batch analysis: what `cmv analyze` keeps of a full cost analysis (small,
// so a batch of thousands stays small in memory, and cheap to pass between threads).

import type { SessionCost } from './session-cost.js';
import type { TokenKind } from '../tokens/breakdown.js';

export type Tier = 'heavy' | 'mixed' | 'light';

/** Tiers by the share of the context that is tool results (the CMV paper's evaluation). */
export const HEAVY_TOOL_SHARE = 0.4;
export const LIGHT_TOOL_SHARE = 0.15;

export function tierOf(toolResultShare: number): Tier {
  if (toolResultShare > HEAVY_TOOL_SHARE) return 'heavy';
  return toolResultShare < LIGHT_TOOL_SHARE ? 'light' : 'mixed';
}

export interface SessionSummary {
  path: string;
  sessionId: string | null;
  kind: 'main' | 'subagent';
  project: string | null;
  bytes: number;
  model: string;
  pricedAs: string;
  firstTimestamp: string | null;
  lastTimestamp: string | null;
  /** API tokens of the context now, and after a trim. */
  tokens: number;
  tokensAfter: number;
  reduction: number;
  composition: Record<TokenKind, number>;
  toolResultShare: number;
  tier: Tier;
  /** usage: from the log's figures; tokenizer: estimated. */
  source: 'usage' | 'tokenizer';
  calls: number;
  /** What the logged calls cost at the registry's prices: responses another file analysed holds too counted once (aggregate.ts). */
  cost: number;
  /** Models this log names that the price table does not know: their calls are left unpriced. */
  unpricedModels?: string[];
  /** Cost of responses an earlier file of the batch already holds (left out of `cost`). */
  repeatedCost: number;
  /** A session cmv made from another (trim, branch, compact): the session it was made from, and how. */
  derivedFrom: { sessionId: string | null; by: string | null } | null;
  /** The priced responses' keys and dollars, to count each once across files; dropped from reports. */
  responses?: [string, number][];
  ttlRewrites: number;
  penalty: number;
  savingPerTurn: number;
  breakEvenTurns: number | null;
  coldBreakEvenTurns: number | null;
  /** Dollars a trim now saves over the next 50 calls (warm resume). */
  saving50: number;
  curve: { turn: number; withoutTrim: number; withTrim: number }[];
}

export function summariseCost(c: SessionCost): SessionSummary {
  const fifty = c.projection.find((p) => p.turns === 50);
  return {
    path: c.path,
    sessionId: c.sessionId ?? null,
    kind: c.kind,
    project: c.cwd ?? null,
    bytes: c.bytes,
    model: c.model,
    pricedAs: c.pricedAs,
    firstTimestamp: c.firstTimestamp ?? null,
    lastTimestamp: c.lastTimestamp ?? null,
    tokens: c.tokens.before,
    tokensAfter: c.tokens.after,
    reduction: c.reduction,
    composition: c.composition.byKind,
    toolResultShare: c.composition.toolResultShare,
    tier: tierOf(c.composition.toolResultShare),
    source: c.replay.source,
    calls: c.calls,
    cost: c.replay.cost,
    repeatedCost: 0,
    unpricedModels: c.replay.byModel.filter((m) => m.resolution === 'unpriced').map((m) => m.model),
    derivedFrom: c.derived ? { sessionId: c.derived.from ?? null, by: c.derived.by ?? null } : null,
    responses: c.replay.source === 'usage' ? c.replay.timeline.filter((t) => t.key).map((t) => [t.key!, t.cost]) : [],
    ttlRewrites: c.replay.ttlRewrites,
    penalty: c.penalty,
    savingPerTurn: c.savingPerTurn,
    breakEvenTurns: c.breakEvenTurns,
    coldBreakEvenTurns: c.cold.breakEvenTurns,
    saving50: fifty ? Math.round((fifty.withoutTrim - fifty.withTrim) * 1_000_000) / 1_000_000 : 0,
    curve: c.curve,
  };
}
