// The cost analysis of one session file: usage when the log has it, the calibrated tokenizer when
// it has not, the trim point (--at) checked against the log, and logs with nothing to analyse.

import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyseSessionCost, NO_CONVERSATION } from '../../src/analyze/session-cost.js';
import { DEFAULT_SCALE } from '../../src/cost/calls.js';
import { builtinRegistry } from '../../src/cost/registry.js';
import { CmvError } from '../../src/errors.js';
import { sessionRecords, toJsonl } from '../session/fixtures.js';
import { corpusFile, HAS_CORPUS, SAMPLE_DIR } from '../helpers/corpus.js';

const dir = mkdtempSync(join(tmpdir(), 'cmv-cost-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const options = { registry: builtinRegistry() };

describe('a session with usage figures', () => {
  it('takes the context size from the last call and the model from the log', async () => {
    const path = write('with-usage.jsonl', toJsonl(sessionRecords({ turns: 3 })));
    const cost = await analyseSessionCost(path, options);
    expect(cost.replay.source).toBe('usage');
    // Three turns of two responses each; the last answer read 15,000 + 2 x 2,000 + 900 and wrote 500 + 3 input.
    expect(cost.calls).toBe(6);
    expect(cost.tokens.before).toBe(3 + 500 + 19_900);
    expect(cost.pricedAs).toBe('sonnet-4.5');
    expect(cost.at).toBe(6);
    expect(cost.kind).toBe('main');
  });

  it('prices the calls as another model with --model', async () => {
    const path = write('with-usage-2.jsonl', toJsonl(sessionRecords({ turns: 2 })));
    const sonnet = await analyseSessionCost(path, options);
    const opus = await analyseSessionCost(path, { ...options, model: 'opus-4.1' });
    expect(opus.pricedAs).toBe('opus-4.1');
    expect(opus.replay.cost).toBeCloseTo(sonnet.replay.cost * 5, 6);
  });

  it('checks the trim point against the log', async () => {
    const path = write('at.jsonl', toJsonl(sessionRecords({ turns: 3 })));
    await expect(analyseSessionCost(path, { ...options, at: 7 })).rejects.toThrow(/--at 7 is not a call of this session/);
    const early = await analyseSessionCost(path, { ...options, at: 2 });
    expect(early.replayedCalls).toBe(4);
    expect(early.tokens.before).toBe(3 + 500 + 15_900); // call 2: the first answer
  });
});

describe('a session without usage figures', () => {
  it('falls back to the tokenizer, scaled by the default calibration', async () => {
    const records = sessionRecords({ turns: 3 });
    for (const r of records) delete ((r.message ?? {}) as Record<string, unknown>).usage;
    const path = write('no-usage.jsonl', toJsonl(records));
    const cost = await analyseSessionCost(path, options);
    expect(cost.replay.source).toBe('tokenizer');
    expect(cost.calibration).toMatchObject({ ...DEFAULT_SCALE, fitted: false });
    expect(cost.calls).toBe(6);
    // The last call saw the overhead plus everything but its own answer, scaled.
    expect(cost.tokens.before).toBeGreaterThan(DEFAULT_SCALE.overheadTokens);
    expect(cost.tokens.before).toBeLessThan(DEFAULT_SCALE.overheadTokens + DEFAULT_SCALE.ratio * cost.tokens.counted.before);
    expect(cost.replay.cost).toBeGreaterThan(0);
    expect(cost.tokens.after).toBeLessThan(cost.tokens.before);
  });
});

describe('logs with nothing to analyse', () => {
  it('fails on a file that is not a session log', async () => {
    const path = write('garbage.jsonl', 'this is not json\nnor this\n');
    await expect(analyseSessionCost(path, options)).rejects.toThrow(/not a Claude Code session log: none of its 2 lines is a JSON record/);
  });

  it('marks a log without a conversation for skipping', async () => {
    const path = write('summary-only.jsonl', '{"type":"summary","summary":"Fix the report","leafUuid":"x"}\n');
    const error = await analyseSessionCost(path, options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CmvError);
    expect((error as CmvError).details).toEqual({ reason: NO_CONVERSATION });
  });
});

describe.skipIf(!HAS_CORPUS)('corpus sessions', () => {
  it('trims a tool-heavy Opus 4.6 session by the calibrated count and breaks even on its own pace', async () => {
    const cost = await analyseSessionCost(corpusFile('spotter-4d5611e5-v2.1.39-compact-3MB.jsonl'), options);
    expect(cost.replay.cost).toBeCloseTo(9.52615, 3);
    expect(cost.tokens.before).toBe(106_060); // the last call's prompt, from its usage
    expect(cost.calibration.fitted).toBe(true);
    // What the trim removes, scaled by the log's own API tokens per counted token of the messages.
    const { before, counted } = { before: cost.tokens.before, counted: cost.tokens.counted };
    const perCounted = (before - cost.calibration.overheadTokens) / counted.before;
    const removed = before - cost.tokens.after;
    expect(removed).toBe(Math.round(perCounted * (counted.before - counted.after)));
    expect(cost.calibration.effectiveRatio).toBeCloseTo(perCounted, 3);
    // Warm: one call's penalty, then a saving of `removed` reads at $0.50/MTok per call.
    expect(cost.savingPerTurn).toBeCloseTo(removed * 0.5e-6, 5);
    expect(cost.breakEvenTurns).toBe(Math.ceil(cost.penalty / cost.savingPerTurn) + 1);
    expect(cost.cold.breakEvenTurns).toBe(1);
    expect(cost.composition.toolResultShare).toBeGreaterThan(0.4);
  });

  it('refuses a trim point before the last compaction', async () => {
    const path = corpusFile('spotter-4d5611e5-v2.1.39-compact-3MB.jsonl');
    await expect(analyseSessionCost(path, { ...options, at: 3 })).rejects.toThrow(/before the session's last compaction/);
  });
});

describe.skipIf(!existsSync(join(SAMPLE_DIR, 'short.jsonl')))('sample sessions', () => {
  it('says a session whose trim removes nothing never breaks even', async () => {
    // short.jsonl's one Read result is under this threshold: the trim leaves every sent token.
    const cost = await analyseSessionCost(join(SAMPLE_DIR, 'short.jsonl'), { ...options, trim: { threshold: 100_000 } });
    expect(cost.reduction).toBe(0);
    expect(cost.breakEvenTurns).toBeNull();
    expect(cost.cold.breakEvenTurns).toBeNull();
  });
});
