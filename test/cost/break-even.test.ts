// Break-even on constructed sessions whose answers are worked out by hand below, at Opus 4.5
// prices: input $5, cache write $6.25 (5m) or $10 (1h), cache read $0.50, per million tokens.

import { describe, expect, it } from 'vitest';
import { breakEvenOf, trimmedCall, type BreakEvenInput } from '../../src/cost/break-even.js';
import { paceOf } from '../../src/cost/projection.js';
import { builtinRegistry } from '../../src/cost/registry.js';
import type { ApiCall } from '../../src/cost/calls.js';

const OPUS = builtinRegistry().get('opus-4.5')!;
const T0 = Date.parse('2026-03-01T10:00:00Z');

/**
 * A session of `n` warm calls `gapSeconds` apart whose prompt grows by `growth` from 100k - (n-1)*growth
 * to exactly 100k at the last call: each reads the previous prompt and writes the growth.
 */
function session(n: number, { growth = 1000, gapSeconds = 10, oneHour = false, firstRead = 0 } = {}): ApiCall[] {
  const calls: ApiCall[] = [];
  for (let i = 0; i < n; i++) {
    const prompt = 100_000 - (n - 1 - i) * growth;
    const read = i === 0 ? firstRead : prompt - growth;
    const write = prompt - read - 1;
    calls.push({
      model: 'claude-opus-4-5-20251101',
      atMs: T0 + i * gapSeconds * 1000,
      sidechain: false,
      line: i * 10,
      input: 1,
      cacheWrite5m: oneHour ? 0 : write,
      cacheWrite1h: oneHour ? write : 0,
      cacheRead: read,
      output: 200,
    });
  }
  return calls;
}

function input(main: ApiCall[], removed: number, extra: Partial<BreakEvenInput> = {}): BreakEvenInput {
  return { main, at: main.length - 1, removed, sharedPrefix: 0, pace: paceOf(main), ttlSeconds: 300, modelOf: () => OPUS, ...extra };
}

describe('break-even of trimming now', () => {
  it('warm resume: pays once the per-call saving covers the rewrite of the smaller prefix', () => {
    // Penalty: write 50k at 6.25 instead of reading 100k at 0.50 = 0.3125 - 0.05 = 0.2625 (the growth is written in both).
    // Saving per later call: 50k fewer read at 0.50 = 0.025. Cumulative after call j: -0.2625 + 0.025 (j - 1) >= 0 at j = 12.
    const b = breakEvenOf(input(session(20), 50_000));
    expect(b.penalty).toBeCloseTo(0.2625, 4);
    expect(b.savingPerTurn).toBeCloseTo(0.025, 4);
    expect(b.breakEvenTurns).toBe(12);
    expect(b.replayedCalls).toBe(0);
  });

  it('cold resume: after the TTL both branches write their prefix, so the smaller one saves at once', () => {
    // Both rewrite: the trimmed branch writes 50k fewer at 6.25 = 0.3125 less.
    const b = breakEvenOf(input(session(20), 50_000));
    expect(b.cold.penalty).toBeCloseTo(-0.3125, 4);
    expect(b.cold.breakEvenTurns).toBe(1);
  });

  it('keeps reading the prefix that was cached before the session began (system prompt, tools)', () => {
    // 20k of the prefix is still read: write 30k at 6.25 + read 20k at 0.50 - read 100k at 0.50 = 0.1875 + 0.01 - 0.05.
    const b = breakEvenOf(input(session(20), 50_000, { sharedPrefix: 20_000 }));
    expect(b.penalty).toBeCloseTo(0.1475, 4);
    expect(b.breakEvenTurns).toBe(7); // -0.1475 + 0.025 (j - 1) >= 0 at j = 6.9
  });

  it('TTL gaps: when calls are further apart than the TTL every call rewrites, and each saves the write price', () => {
    // Median gap 600 s > 300 s: every projected call after the resume is cold and saves 50k x 6.25 = 0.3125.
    const b = breakEvenOf(input(session(20, { gapSeconds: 600 }), 50_000));
    expect(b.penalty).toBeCloseTo(0.2625, 4);
    expect(b.savingPerTurn).toBeCloseTo(0.3125, 4);
    expect(b.breakEvenTurns).toBe(2);
  });

  it('a 1-hour cache keeps those gaps warm, and its writes cost 2x', () => {
    // TTL 3600 s: 600 s gaps stay warm. Penalty: 50k at 10 - 100k at 0.50 = 0.45; saving 0.025 → j - 1 >= 18.
    const calls = session(20, { gapSeconds: 600, oneHour: true });
    const b = breakEvenOf(input(calls, 50_000, { ttlSeconds: 3600 }));
    expect(b.penalty).toBeCloseTo(0.45, 4);
    expect(b.savingPerTurn).toBeCloseTo(0.025, 4);
    expect(b.breakEvenTurns).toBe(19);
  });

  it('never: a trim that removes little does not pay back its rewrite within 60 calls', () => {
    // Penalty 99k x 6.25 - 100k x 0.50 = 0.56875; saving 1k x 0.50 = 0.0005 per call: 1138 calls.
    const b = breakEvenOf(input(session(20), 1_000));
    expect(b.penalty).toBeCloseTo(0.56875, 4);
    expect(b.breakEvenTurns).toBeNull();
    expect(b.cold.breakEvenTurns).toBe(1);
  });

  it('never, warm or cold, when the trim removes nothing', () => {
    const b = breakEvenOf(input(session(20), 0));
    expect(b.breakEvenTurns).toBeNull();
    expect(b.cold.breakEvenTurns).toBeNull();
    expect(b.penalty).toBe(0);
  });

  it('projects the next calls from the session pace, with and without the trim', () => {
    const b = breakEvenOf(input(session(20), 50_000));
    const five = b.projection.find((p) => p.turns === 5)!;
    // Without: 5 x (read prompt at 0.50 + write 1k at 6.25 + 200 output at 25), prompts 100k..104k before each call.
    const without = [100_000, 101_000, 102_000, 103_000, 104_000].reduce((n, read) => n + read * 0.5e-6 + 1000 * 6.25e-6 + 200 * 25e-6, 0);
    expect(five.withoutTrim).toBeCloseTo(without, 3);
    expect(five.withoutTrim - five.withTrim).toBeCloseTo(-0.2625 + 4 * 0.025, 3);
    expect(five.contextWithoutTrim).toBe(105_000);
    expect(five.contextWithTrim).toBe(55_000);
    expect(b.projection.map((p) => p.turns)).toEqual([5, 10, 20, 50]);
    expect(b.curve).toHaveLength(61);
  });
});

describe('break-even of a trim made earlier, replayed from the log', () => {
  it('replays the calls after the trim point from their usage', () => {
    const calls = session(30);
    // Trim after call 10 (index 9), removing 40k: the 20 calls after it are replayed.
    const b = breakEvenOf(input(calls, 40_000, { at: 9 }));
    expect(b.replayedCalls).toBe(20);
    // Call 11 (prompt 81k) read 80k and wrote 999: the trimmed branch writes 81k - 40k - 1 (input) instead.
    // Penalty 40,999 x 6.25 - (80k x 0.50 + 999 x 6.25) = 0.25 - 0.04 = 0.21.
    expect(b.penalty).toBeCloseTo(0.21, 4);
    // Later calls read 40k less: 0.02 each. -0.21 + 0.02 (j - 1) >= 0 → j = 12.
    expect(b.breakEvenTurns).toBe(12);
  });

  it('counts a logged TTL rewrite after the trim as a saving at the write price', () => {
    const calls = session(30);
    // Call 14 came after a long break: the log shows it rewrote its whole prefix.
    const c = calls[13];
    calls[13] = { ...c, cacheRead: 0, cacheWrite5m: c.cacheRead + c.cacheWrite5m };
    for (let i = 13; i < calls.length; i++) calls[i] = { ...calls[i], atMs: calls[i].atMs! + 3_600_000 };
    const b = breakEvenOf(input(calls, 40_000, { at: 9 }));
    // Calls 12-13 save 0.02 each; call 14 saves 40k x 6.25 = 0.25: -0.21 + 0.04 + 0.25 >= 0 at the 4th call.
    expect(b.breakEvenTurns).toBe(4);
  });

  it('stops counting the trim after a compaction, which replaces the history in both branches', () => {
    const calls = session(30);
    // A compaction at call 12: from there the prompt restarts small.
    for (let i = 11; i < calls.length; i++) calls[i] = { ...calls[i], cacheRead: 20_000 + (i - 11) * 1000, cacheWrite5m: 1000 };
    const b = breakEvenOf(input(calls, 40_000, { at: 9 }));
    expect(b.breakEvenTurns).toBeNull(); // only call 11 paid the penalty, nothing saved after
  });
});

describe('the trimmed call', () => {
  it('takes the removed tokens from the cache read first, then the write, then the input', () => {
    const call: ApiCall = { sidechain: false, line: 0, input: 10, cacheWrite5m: 100, cacheWrite1h: 0, cacheRead: 1000, output: 5 };
    expect(trimmedCall(call, 500, false, 0)).toMatchObject({ cacheRead: 500, cacheWrite5m: 100, input: 10 });
    expect(trimmedCall(call, 1050, false, 0)).toMatchObject({ cacheRead: 0, cacheWrite5m: 50, input: 10 });
    expect(trimmedCall(call, 1105, false, 0)).toMatchObject({ cacheRead: 0, cacheWrite5m: 0, input: 5 });
    expect(trimmedCall(call, 300, true, 200)).toMatchObject({ cacheRead: 200, cacheWrite5m: 1110 - 300 - 200 - 10, input: 10 });
  });
});
