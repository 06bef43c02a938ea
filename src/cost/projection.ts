// Calls past the end of the log, projected from the session's own pace: its median prompt growth
// per call, its median gap between calls (which decides whether the cache is still warm) and its
// median output. Also when the context would reach Claude Code's compaction thresholds.

import { promptOf, TTL_1H_SECONDS, type ApiCall } from './calls.js';
import type { ModelInfo } from './models.js';

export interface SessionPace {
  /** Median growth of the prompt from one call to the next (compactions left out), in tokens. */
  growthPerTurn: number;
  /** Median seconds between consecutive calls; null without timestamps. */
  medianGapSeconds: number | null;
  /** Median output tokens per call. */
  outputPerTurn: number;
}

export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** A drop of more than this share of the prompt between two calls is a compaction, not growth. */
export const COMPACTION_DROP = 0.3;

export function isCompaction(previousPrompt: number, prompt: number): boolean {
  return prompt < previousPrompt * (1 - COMPACTION_DROP);
}

export function paceOf(main: ApiCall[]): SessionPace {
  const growth: number[] = [];
  const gaps: number[] = [];
  for (let i = 1; i < main.length; i++) {
    const before = promptOf(main[i - 1]);
    const now = promptOf(main[i]);
    if (!isCompaction(before, now)) growth.push(Math.max(0, now - before));
    const a = main[i - 1].atMs;
    const b = main[i].atMs;
    if (a !== undefined && b !== undefined && b >= a) gaps.push((b - a) / 1000);
  }
  return {
    growthPerTurn: Math.round(median(growth) ?? 0),
    medianGapSeconds: median(gaps),
    outputPerTurn: Math.round(median(main.map((c) => c.output)) ?? 0),
  };
}

/**
 * `turns` calls after a prompt of `lastPrompt` tokens. A warm call reads the previous prompt from
 * the cache and writes what is new; a cold one (the first, on a cold resume, or any call when the
 * median gap exceeds the TTL) writes the whole prompt.
 */
export function projectCalls(lastPrompt: number, pace: SessionPace, ttlSeconds: number, turns: number, resume: 'warm' | 'cold'): ApiCall[] {
  const calls: ApiCall[] = [];
  const gapsExpire = pace.medianGapSeconds !== null && pace.medianGapSeconds > ttlSeconds;
  const oneHour = ttlSeconds >= TTL_1H_SECONDS;
  let previous = lastPrompt;
  for (let i = 1; i <= turns; i++) {
    const prompt = previous + pace.growthPerTurn;
    const cold = i === 1 ? resume === 'cold' : gapsExpire;
    const read = cold ? 0 : previous;
    const write = prompt - read;
    calls.push({
      sidechain: false,
      line: -1,
      input: 0,
      cacheWrite5m: oneHour ? 0 : write,
      cacheWrite1h: oneHour ? write : 0,
      cacheRead: read,
      output: pace.outputPerTurn,
    });
    previous = prompt;
  }
  return calls;
}

export interface ThresholdTurns {
  /** The threshold in tokens. */
  tokens: number;
  /** Calls from the end of the log until the context reaches it: 0 = already past, null = never at this pace. */
  withoutTrim: number | null;
  withTrim: number | null;
}

export interface Thresholds {
  window: number;
  soft: ThresholdTurns;
  hard: ThresholdTurns;
  circuitBreaker: ThresholdTurns;
}

function turnsUntil(threshold: number, prompt: number, growth: number): number | null {
  if (prompt >= threshold) return 0;
  return growth > 0 ? Math.ceil((threshold - prompt) / growth) : null;
}

/** The window a session runs in: the long-context one when its prompts already went past the standard window. */
export function windowOf(model: ModelInfo, largestPrompt: number): number {
  return model.longContext && largestPrompt > model.contextWindow ? model.longContext.window : model.contextWindow;
}

export function thresholdsOf(model: ModelInfo, window: number, prompt: number, removed: number, growth: number): Thresholds {
  const at = (fraction: number): ThresholdTurns => {
    const tokens = Math.round(window * fraction);
    return { tokens, withoutTrim: turnsUntil(tokens, prompt, growth), withTrim: turnsUntil(tokens, prompt - removed, growth) };
  };
  return { window, soft: at(model.compaction.soft), hard: at(model.compaction.hard), circuitBreaker: at(model.compaction.circuitBreaker) };
}
