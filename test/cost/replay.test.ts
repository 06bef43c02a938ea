// The replay reproduces what real sessions cost. The expected figures were computed apart from
// cmv, by a short Python script over the raw JSONL: one usage per API response (message.id +
// requestId + subagent; the largest line of the group), `<synthetic>` lines excluded, each call
// priced at its own model's list price, 5m writes at 1.25x, 1h writes at 2x, reads at 0.1x.

import { describe, expect, it } from 'vitest';
import { openSession } from '../../src/session/session.js';
import { callsFromUsage, mainCalls, sessionTtlSeconds, type ApiCall } from '../../src/cost/calls.js';
import { replayCalls } from '../../src/cost/replay.js';
import { builtinRegistry } from '../../src/cost/registry.js';
import { corpusFile, HAS_CORPUS } from '../helpers/corpus.js';
import { sessionOf, sessionRecords } from '../session/fixtures.js';

const corpus = describe.skipIf(!HAS_CORPUS);

corpus('replay of corpus sessions', () => {
  it.each([
    // file, calls, dollars, cache read, cache write, rewrites after a gap over the 5-minute TTL
    ['spotter-4d5611e5-v2.1.39-compact-3MB.jsonl', 139, 9.52615, 11_618_567, 479_537, 2],
    ['entire-b02936744f-v2.1.5-apierrors-2compacts-3MB.jsonl', 147, 17.388216, 14_988_341, 1_280_052, 4],
    // Opus 4 and Sonnet 4 in one log, inline subagents included.
    ['happy-400429ba-v1.0.51-3MB.jsonl', 406, 60.528331, 27_474_087, 1_257_229, 6],
    // Opus 4.5 and Haiku 4.5 subagents, API-error placeholders left out.
    ['sessionshare-0ccf1a04-v2.1.15-16-apierror.jsonl', 11, 0.245497, 194_395, 46_482, 2],
  ] as const)('%s costs what its usage says', async (file, calls, dollars, cacheRead, cacheWrite, rewrites) => {
    const session = await openSession(corpusFile(file), { keepBytes: false, findSubagents: false });
    const replay = replayCalls(callsFromUsage(session.conversation), builtinRegistry(), 'usage');
    expect(replay.calls).toBe(calls);
    expect(replay.cost).toBeCloseTo(dollars, 3);
    expect(replay.cacheReadTokens).toBe(cacheRead);
    expect(replay.cacheWriteTokens).toBe(cacheWrite);
    expect(replay.ttlRewrites).toBe(rewrites);
  });

  it('prices each call at its own model', async () => {
    const session = await openSession(corpusFile('happy-400429ba-v1.0.51-3MB.jsonl'), { keepBytes: false, findSubagents: false });
    const replay = replayCalls(callsFromUsage(session.conversation), builtinRegistry(), 'usage');
    expect(replay.byModel.map((m) => m.pricedAs).sort()).toEqual(['opus-4', 'sonnet-4']);
    expect(replay.byModel.reduce((n, m) => n + m.calls, 0)).toBe(406);
    // --model re-prices everything: Sonnet 4 is a fifth of Opus 4.
    const asSonnet = replayCalls(callsFromUsage(session.conversation), builtinRegistry(), 'usage', builtinRegistry().resolve('sonnet-4'));
    expect(asSonnet.cost).toBeLessThan(replay.cost);
    expect(asSonnet.byModel).toHaveLength(1);
  });

  it('sees the cache go cold after the long gaps of the log', async () => {
    const session = await openSession(corpusFile('spotter-4d5611e5-v2.1.39-compact-3MB.jsonl'), { keepBytes: false, findSubagents: false });
    const replay = replayCalls(callsFromUsage(session.conversation), builtinRegistry(), 'usage');
    const rewrites = replay.timeline.filter((c) => c.ttlRewrite);
    expect(rewrites.map((c) => c.gapSeconds)).toEqual([15070, 1153]);
    expect(rewrites.every((c) => !c.warm)).toBe(true);
  });
});

describe('replay of constructed calls', () => {
  const call = (seconds: number, over: Partial<ApiCall> = {}): ApiCall => ({
    model: 'claude-haiku-4-5-20251001',
    atMs: Date.parse('2026-03-01T10:00:00Z') + seconds * 1000,
    sidechain: false,
    line: seconds,
    input: 2,
    cacheWrite5m: 1_000,
    cacheWrite1h: 0,
    cacheRead: 9_000,
    output: 100,
    ...over,
  });

  it('adds input, both cache writes, reads and output at the model prices', () => {
    // Haiku 4.5: 1 / 1.25 / 2 / 0.10 / 5 dollars per million.
    const replay = replayCalls([call(0, { cacheWrite1h: 500 })], builtinRegistry(), 'usage');
    expect(replay.cost).toBeCloseTo((2 * 1 + 1000 * 1.25 + 500 * 2 + 9000 * 0.1 + 100 * 5) / 1e6, 6);
  });

  it('counts a rewrite only for main calls after a gap longer than the TTL', () => {
    const calls = [call(0), call(200), call(600), call(700, { sidechain: true }), call(1000)];
    const replay = replayCalls(calls, builtinRegistry(), 'usage');
    expect(replay.timeline.map((c) => c.ttlRewrite)).toEqual([false, false, true, false, true]);
    expect(replay.ttlRewrites).toBe(2);
    expect(replay.timeline.map((c) => c.call)).toEqual([1, 2, 3, null, 4]);
  });

  it('reads the 5m/1h split of cache writes from the log, and prices the 1-hour writes at 2x', () => {
    const records = sessionRecords({ turns: 1 });
    for (const r of records) {
      const usage = (r.message as { usage?: Record<string, unknown> } | undefined)?.usage;
      if (usage) usage.cache_creation = { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 400 };
    }
    const calls = callsFromUsage(sessionOf(records).conversation);
    expect(calls.map((c) => [c.cacheWrite5m, c.cacheWrite1h])).toEqual([
      [100, 400],
      [100, 400],
    ]);
    expect(sessionTtlSeconds(calls)).toBe(3600);
    // Sonnet 4.5: 100 x 3.75 + 400 x 6 for the writes of each call, on top of input, reads and output.
    const replay = replayCalls(calls, builtinRegistry(), 'usage');
    const reads = 15_000 + 15_900;
    expect(replay.cost).toBeCloseTo((2 * (3 * 3 + 100 * 3.75 + 400 * 6) + reads * 0.3 + (48 + 120) * 15) / 1e6, 6);
  });

  it("prices an advisor's calls, which only the usage's iterations hold, at the advisor's model and outside the context", () => {
    // The shape of a claude-opus-5 response with an advisor (2.1.2xx, corpus): top-level figures
    // are the sum of the 'message' iterations; the advisor's are in its iteration alone.
    const records = sessionRecords({ turns: 1 });
    const withUsage = records.filter((r) => (r.message as { usage?: unknown } | undefined)?.usage);
    const usage = (withUsage[withUsage.length - 1].message as { usage: Record<string, unknown> }).usage;
    usage.iterations = [
      { type: 'message', input_tokens: 1, output_tokens: 10, cache_read_input_tokens: 100, cache_creation_input_tokens: 0 },
      { type: 'advisor_message', model: 'claude-haiku-4-5', input_tokens: 80_000, output_tokens: 2_000, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
      { type: 'message', input_tokens: 2, output_tokens: 38, cache_read_input_tokens: 100, cache_creation_input_tokens: 0 },
    ];
    const plain = callsFromUsage(sessionOf(sessionRecords({ turns: 1 })).conversation);
    const calls = callsFromUsage(sessionOf(records).conversation);
    expect(calls).toHaveLength(plain.length + 1);
    const advisor = calls[calls.length - 1];
    expect(advisor).toMatchObject({ model: 'claude-haiku-4-5', sidechain: true, input: 80_000, output: 2_000, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0 });
    expect(advisor.key).toBe(`${calls[calls.length - 2].key}:advisor0`);
    // The conversation's calls, and so its context and break-even, are those of the log without the advisor.
    expect(mainCalls(calls)).toEqual(mainCalls(plain));
    const extra = replayCalls(calls, builtinRegistry(), 'usage').cost - replayCalls(plain, builtinRegistry(), 'usage').cost;
    expect(extra).toBeCloseTo((80_000 * 1 + 2_000 * 5) / 1e6, 6); // Haiku 4.5: 1 and 5 dollars per million
  });

  it('takes the 1-hour TTL when most cache writes used it', () => {
    const calls = [call(0, { cacheWrite5m: 0, cacheWrite1h: 2000 }), call(1200, { cacheWrite5m: 0, cacheWrite1h: 100 })];
    expect(sessionTtlSeconds(mainCalls(calls))).toBe(3600);
    expect(replayCalls(calls, builtinRegistry(), 'usage').ttlRewrites).toBe(0);
  });
});
