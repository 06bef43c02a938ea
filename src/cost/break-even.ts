// Break-even of a trim under prompt caching. The counterfactual of trimming at call k: the first
// call after it cannot read the original prefix from the cache and writes the smaller one (only
// what the log shows was already cached when the session began, the system prompt and tools, is
// still read); every later call reads `removed` fewer tokens. Calls the log holds are replayed
// from their usage; past its end they are projected from the session's pace.

import { cacheWriteOf, promptOf, type ApiCall } from './calls.js';
import { callCost, dollars } from './pricing.js';
import type { ModelInfo } from './models.js';
import { isCompaction, projectCalls, type SessionPace } from './projection.js';

/** Break-even is looked for within this many calls after the trim (the CMV evaluation's 60 turns). */
export const BREAK_EVEN_HORIZON = 60;
export const PROJECTION_TURNS = [5, 10, 20, 50] as const;

export interface BreakEvenInput {
  /** The main conversation's calls, in order. */
  main: ApiCall[];
  /** 0-based index of the call after which the session is trimmed (main.length - 1: now). */
  at: number;
  /** API tokens the trim removes from the prompt at that point. */
  removed: number;
  /** Prompt tokens cached before the session began (shared across sessions): still read after a trim. */
  sharedPrefix: number;
  pace: SessionPace;
  ttlSeconds: number;
  /** Prices of a logged call (by its model), and of projected calls. */
  modelOf: (call: ApiCall) => ModelInfo;
}

export interface ProjectionPoint {
  turns: number;
  /** Dollars over the next `turns` calls past the end of the log. */
  withoutTrim: number;
  withTrim: number;
  /** Prompt tokens after those calls. */
  contextWithoutTrim: number;
  contextWithTrim: number;
}

export interface BreakEven {
  /** Extra dollars the first call after the trim costs (negative: it already saves). */
  penalty: number;
  /** Dollars each later call saves at the session's pace. */
  savingPerTurn: number;
  /** Calls after the trim until the cumulative saving covers the penalty (1 = the first call); null = not within the horizon. */
  breakEvenTurns: number | null;
  /** The same after a break longer than the TTL, when the original's cache is gone too. */
  cold: { penalty: number; breakEvenTurns: number | null };
  /** Logged calls after the trim point that the answer replays (0 when trimming now). */
  replayedCalls: number;
  projection: ProjectionPoint[];
  /** Cumulative dollars after the trim, call by call, warm resume (for plots). */
  curve: { turn: number; withoutTrim: number; withTrim: number }[];
}

function withWrite(call: ApiCall, write: number): Pick<ApiCall, 'cacheWrite5m' | 'cacheWrite1h'> {
  const total = cacheWriteOf(call);
  const oneHourShare = total > 0 ? call.cacheWrite1h / total : call.cacheWrite1h > 0 ? 1 : 0;
  const oneHour = Math.round(write * oneHourShare);
  return { cacheWrite5m: write - oneHour, cacheWrite1h: oneHour };
}

/** The call as it would have been with `removed` fewer tokens in its prompt. */
export function trimmedCall(call: ApiCall, removed: number, first: boolean, sharedPrefix: number): ApiCall {
  if (removed <= 0) return call;
  if (first) {
    const read = Math.min(call.cacheRead, sharedPrefix);
    const write = Math.max(0, promptOf(call) - removed - read - call.input);
    return { ...call, cacheRead: read, ...withWrite(call, write) };
  }
  let left = removed;
  const take = (n: number) => {
    const t = Math.min(n, left);
    left -= t;
    return n - t;
  };
  const cacheRead = take(call.cacheRead);
  const write = take(cacheWriteOf(call));
  const input = take(call.input);
  return { ...call, cacheRead, input, ...withWrite(call, write) };
}

/** The call after a break longer than the TTL: nothing read from the cache. */
function coldCall(call: ApiCall): ApiCall {
  return { ...call, cacheRead: 0, ...withWrite(call, promptOf(call) - call.input) };
}

interface Branches {
  without: number[];
  with: number[];
  /** Prompt tokens the trimmed branch is smaller by, per call. */
  removed: number[];
}

function costBranches(calls: ApiCall[], input: BreakEvenInput, firstIsResume: boolean): Branches {
  const out: Branches = { without: [], with: [], removed: [] };
  let removed = input.removed;
  let previousPrompt: number | undefined;
  calls.forEach((call, i) => {
    const prompt = promptOf(call);
    // A compaction replaces the whole history in both branches: the trim makes no difference after it.
    if (previousPrompt !== undefined && call.line >= 0 && isCompaction(previousPrompt, prompt)) removed = 0;
    previousPrompt = prompt;
    const model = input.modelOf(call);
    const trimmed = trimmedCall(call, Math.min(removed, prompt), i === 0 && firstIsResume, input.sharedPrefix);
    out.without.push(callCost(call, model));
    out.with.push(callCost(trimmed, model));
    out.removed.push(promptOf(call) - promptOf(trimmed));
  });
  return out;
}

function firstBreakEven(b: Branches, removed: number): number | null {
  if (removed <= 0) return null;
  let saved = 0;
  for (let i = 0; i < Math.min(b.without.length, BREAK_EVEN_HORIZON); i++) {
    saved += b.without[i] - b.with[i];
    if (saved >= -1e-12) return i + 1;
  }
  return null;
}

export function breakEvenOf(input: BreakEvenInput): BreakEven {
  const { main, at, pace, ttlSeconds } = input;
  const replayed = main.slice(at + 1);
  const trimmingNow = replayed.length === 0;
  const lastPrompt = main.length > 0 ? promptOf(main[main.length - 1]) : 0;
  const projected = (resume: 'warm' | 'cold') => projectCalls(lastPrompt, pace, ttlSeconds, BREAK_EVEN_HORIZON, resume);

  const warmSeq = [...replayed, ...projected('warm')];
  const coldSeq = trimmingNow ? projected('cold') : [coldCall(replayed[0]), ...replayed.slice(1), ...projected('warm')];
  const warm = costBranches(warmSeq, input, true);
  const cold = costBranches(coldSeq, input, true);

  // The projection past the end, on its own: with the trim made now (a resume) or earlier (already trimmed).
  const ahead = costBranches(projected('warm'), { ...input, removed: trimmingNow ? input.removed : (warm.removed[replayed.length] ?? 0) }, trimmingNow);
  const projection: ProjectionPoint[] = PROJECTION_TURNS.map((turns) => {
    const sum = (xs: number[]) => xs.slice(0, turns).reduce((a, b) => a + b, 0);
    const context = lastPrompt + pace.growthPerTurn * turns;
    return {
      turns,
      withoutTrim: dollars(sum(ahead.without)),
      withTrim: dollars(sum(ahead.with)),
      contextWithoutTrim: context,
      contextWithTrim: context - (ahead.removed[turns - 1] ?? 0),
    };
  });

  const curve: BreakEven['curve'] = [{ turn: 0, withoutTrim: 0, withTrim: 0 }];
  let sumWithout = 0;
  let sumWith = 0;
  for (let i = 0; i < Math.min(warm.without.length, BREAK_EVEN_HORIZON); i++) {
    sumWithout += warm.without[i];
    sumWith += warm.with[i];
    curve.push({ turn: i + 1, withoutTrim: dollars(sumWithout), withTrim: dollars(sumWith) });
  }

  return {
    penalty: dollars((warm.with[0] ?? 0) - (warm.without[0] ?? 0)),
    savingPerTurn: dollars((ahead.without[1] ?? 0) - (ahead.with[1] ?? 0)),
    breakEvenTurns: firstBreakEven(warm, input.removed),
    cold: { penalty: dollars((cold.with[0] ?? 0) - (cold.without[0] ?? 0)), breakEvenTurns: firstBreakEven(cold, input.removed) },
    replayedCalls: replayed.length,
    projection,
    curve,
  };
}
