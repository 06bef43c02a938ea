// The replay: what each logged call cost at the registry's prices, where the cache was warm, and
// where a gap longer than the cache TTL forced the prefix to be written again.

import { cacheWriteOf, mainCalls, promptOf, sessionTtlSeconds, type ApiCall } from './calls.js';
import { callCost, dollars } from './pricing.js';
import type { ModelRegistry, ResolvedModel } from './registry.js';

export interface ReplayedCall {
  /** 1-based number among the main conversation's calls (what `--at` takes); null for subagent calls. */
  call: number | null;
  at?: string;
  model: string;
  prompt: number;
  output: number;
  cost: number;
  /** Most of the prefix came from the cache. */
  warm: boolean;
  /** Seconds since the previous main call. */
  gapSeconds?: number;
  /** The gap exceeded the TTL: the cache had expired and the prefix was written again. */
  ttlRewrite: boolean;
  /** The response's ids (see ApiCall.key), to count it once across files. */
  key?: string;
}

export interface Replay {
  /** usage: the log's own figures; tokenizer: estimated from counted tokens (the log has no usage). */
  source: 'usage' | 'tokenizer';
  calls: number;
  cost: number;
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
  ttlSeconds: number;
  ttlRewrites: number;
  warmCalls: number;
  byModel: { model: string; pricedAs: string; resolution: string; calls: number; cost: number }[];
  timeline: ReplayedCall[];
}

export function replayCalls(calls: ApiCall[], registry: ModelRegistry, source: Replay['source'], override?: ResolvedModel): Replay {
  const ttlSeconds = sessionTtlSeconds(mainCalls(calls));
  const resolved = new Map<string, ResolvedModel>();
  const resolve = (name: string | undefined): ResolvedModel => {
    if (override) return override;
    const key = name ?? '';
    let r = resolved.get(key);
    if (!r) resolved.set(key, (r = registry.resolve(name)));
    return r;
  };
  const replay: Replay = {
    source,
    calls: calls.length,
    cost: 0,
    inputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    outputTokens: 0,
    ttlSeconds,
    ttlRewrites: 0,
    warmCalls: 0,
    byModel: [],
    timeline: [],
  };
  const byModel = new Map<string, Replay['byModel'][number]>();
  let mainNumber = 0;
  let previousMs: number | undefined;
  for (const call of calls) {
    const model = resolve(call.model);
    const cost = callCost(call, model.info);
    replay.cost += cost;
    replay.inputTokens += call.input;
    replay.cacheReadTokens += call.cacheRead;
    replay.cacheWriteTokens += cacheWriteOf(call);
    replay.outputTokens += call.output;
    const name = model.name || model.info.id;
    const row = byModel.get(name) ?? { model: name, pricedAs: model.info.id, resolution: model.resolution, calls: 0, cost: 0 };
    row.calls++;
    row.cost += cost;
    byModel.set(name, row);

    const warm = call.cacheRead > cacheWriteOf(call) + call.input;
    let gapSeconds: number | undefined;
    let ttlRewrite = false;
    if (!call.sidechain) {
      mainNumber++;
      if (call.atMs !== undefined && previousMs !== undefined) {
        gapSeconds = Math.round((call.atMs - previousMs) / 1000);
        ttlRewrite = gapSeconds > ttlSeconds;
      }
      if (call.atMs !== undefined) previousMs = call.atMs;
      if (ttlRewrite) replay.ttlRewrites++;
      if (warm) replay.warmCalls++;
    }
    replay.timeline.push({
      call: call.sidechain ? null : mainNumber,
      at: call.atMs === undefined ? undefined : new Date(call.atMs).toISOString(),
      model: name,
      prompt: promptOf(call),
      output: call.output,
      cost: dollars(cost),
      warm,
      gapSeconds,
      ttlRewrite,
      key: call.key,
    });
  }
  replay.byModel = [...byModel.values()].map((m) => ({ ...m, cost: dollars(m.cost) })).sort((a, b) => b.cost - a.cost);
  replay.cost = dollars(replay.cost);
  return replay;
}
