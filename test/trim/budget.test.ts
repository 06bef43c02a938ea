// Budget eviction after the lossless trim: it meets a reachable budget by evicting tool payloads
// in lifecycle order (oldest actions, then explorations), keeps every text and tool pairing, and
// refuses to write anything when the budget is below what the conversation's texts need.

import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { trimSession, type TrimResult } from '../../src/trim/trim.js';
import { trimToDestination } from '../../src/trim/apply.js';
import { openSession } from '../../src/session/session.js';
import { sentTexts } from '../../src/session/payload.js';
import { tokenBreakdown } from '../../src/tokens/breakdown.js';
import { countTokens } from '../../src/tokens/counter.js';
import { CmvError } from '../../src/errors.js';
import type { BudgetReport } from '../../src/trim/budget.js';
import { SAMPLE_DIR } from '../helpers/corpus.js';
import { SessionBuilder, CWD, removeWrittenSessions, commandOutput, readOutput, recordsOf, resultContent } from './session-builder.js';

const sample = (name: string) => join(SAMPLE_DIR, name);

afterAll(removeWrittenSessions);

/** Tokens the user and assistant texts of the lossless trim need: no budget can go below them. */
function textTokens(result: TrimResult): number {
  const { byKind } = tokenBreakdown(result.trimmed);
  return byKind.userText + byKind.assistantText;
}

/** Each original sent text, in order, among the trimmed session's sent texts. */
async function missingTexts(originalPath: string, result: TrimResult): Promise<string[]> {
  const trimmed = sentTexts(result.trimmed);
  const missing: string[] = [];
  let cursor = 0;
  for (const text of sentTexts(await openSession(originalPath, { findSubagents: false }))) {
    const at = trimmed.findIndex((t, i) => i >= cursor && t.role === text.role && t.text === text.text);
    if (at < 0) missing.push(`${text.role}: ${text.text.slice(0, 60)}`);
    else cursor = at + 1;
  }
  return missing;
}

function toolResults(lines: Buffer[]): Map<string, string> {
  const results = new Map<string, string>();
  for (const record of recordsOf(lines)) {
    const content = record.message?.content;
    if (!Array.isArray(content)) continue;
    for (const block of content) if (block?.type === 'tool_result') results.set(block.tool_use_id, typeof block.content === 'string' ? block.content : JSON.stringify(block.content));
  }
  return results;
}

/** Within each level, the evicted episodes follow the lifecycle order: actions oldest first, then explorations. */
function orderFaults(report: BudgetReport): string[] {
  const faults: string[] = [];
  for (const level of [1, 2, 3]) {
    const at = report.evicted.filter((e) => e.level === level);
    const expected = [...at.filter((e) => e.kind === 'action'), ...at.filter((e) => e.kind === 'exploration')];
    if (at.map((e) => e.episode).join() !== expected.map((e) => e.episode).join()) faults.push(`level ${level}: ${at.map((e) => `${e.episode}${e.kind[0]}`).join(' ')}`);
    const actions = at.filter((e) => e.kind === 'action').map((e) => e.episode);
    if (actions.join() !== [...actions].sort((a, b) => a - b).join()) faults.push(`level ${level}: actions not oldest first: ${actions.join(' ')}`);
  }
  return faults;
}

async function expectKeepsConversation(path: string, result: TrimResult): Promise<void> {
  expect(result.verify.faults).toEqual([]);
  expect(result.verify.ok).toBe(true);
  expect(result.verify.texts.user.kept).toBe(result.verify.texts.user.total);
  expect(result.verify.texts.assistant.kept).toBe(result.verify.texts.assistant.total);
  expect(result.verify.toolPairs.intact).toBe(result.verify.toolPairs.total);
  expect(result.trimmed.conversation.unpairedToolUses).toEqual([]);
  expect(result.trimmed.conversation.unpairedToolResults).toEqual([]);
  expect(await missingTexts(path, result)).toEqual([]);
}

describe('budget eviction on a sample session', () => {
  const path = sample('resumed.jsonl');

  it('meets a budget between the lossless size and the text size, keeping every text and tool pair', async () => {
    const lossless = await trimSession(path);
    const texts = textTokens(lossless);
    const budget = Math.round(lossless.output.tokens * 0.8);
    expect(budget).toBeGreaterThan(texts);

    const result = await trimSession(path, { budget });
    const report = result.budget!;
    expect(report.tokensBefore).toBe(lossless.output.tokens);
    expect(report.met).toBe(true);
    expect(report.tokensAfter).toBeLessThanOrEqual(budget);
    expect(result.output.tokens).toBe(report.tokensAfter);
    expect(report.evicted.length).toBeGreaterThan(0);
    // resumed.jsonl has three action episodes (one per invocation): the oldest goes first.
    expect(report.evicted[0]).toMatchObject({ episode: 0, kind: 'action' });
    expect(orderFaults(report)).toEqual([]);
    await expectKeepsConversation(path, result);
  });

  // The budget "halfway between the lossless size and the text size" leaves room for every tool
  // pair at a few dozen tokens each; eviction that empties tool payloads should reach it.
  for (const name of ['resumed.jsonl', 'coding.jsonl']) {
    it(`meets a budget halfway between the lossless size and the text size (${name})`, async () => {
      const lossless = await trimSession(sample(name));
      const budget = Math.round((lossless.output.tokens + textTokens(lossless)) / 2);
      const result = await trimSession(sample(name), { budget });
      expect(result.budget!.tokensAfter, `${name}: ${lossless.output.tokens} lossless, ${textTokens(lossless)} of texts, budget ${budget}`).toBeLessThanOrEqual(budget);
      expect(result.budget!.met).toBe(true);
      await expectKeepsConversation(sample(name), result);
    });
  }

  it('never makes a tool result larger by evicting it', async () => {
    const path = sample('coding.jsonl');
    const lossless = await trimSession(path);
    const evicted = await trimSession(path, { budget: 1 });
    const before = toolResults(lossless.lines);
    const grown: string[] = [];
    for (const [id, text] of toolResults(evicted.lines)) {
      const was = before.get(id)!;
      if (countTokens(text) > countTokens(was)) grown.push(`${JSON.stringify(was.slice(0, 70))} -> ${JSON.stringify(text.slice(0, 70))}`);
    }
    expect(grown, `${grown.length} of ${before.size} results grew`).toEqual([]);
  });

  it('reports an unmet budget below what the texts need, and trimToDestination writes nothing', async () => {
    const lossless = await trimSession(path);
    const budget = Math.floor(textTokens(lossless) / 2);
    const result = await trimSession(path, { budget });
    expect(result.budget!.met).toBe(false);
    expect(result.budget!.tokensAfter).toBeGreaterThan(budget);
    await expectKeepsConversation(path, result);

    const dir = mkdtempSync(join(tmpdir(), 'cmv-budget-'));
    const copy = join(dir, basename(path));
    copyFileSync(path, copy);
    const original = readFileSync(copy);
    for (const destination of [{ kind: 'new-session' } as const, { kind: 'file', path: join(dir, 'out.jsonl') } as const, { kind: 'in-place' } as const]) {
      const error = await trimToDestination(copy, { budget }, destination).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, destination.kind).toBeInstanceOf(CmvError);
      expect((error as CmvError).code).toBe('BUDGET_UNMET');
    }
    expect(readdirSync(dir)).toEqual([basename(path)]);
    expect(readFileSync(copy).equals(original)).toBe(true);
    expect(existsSync(join(dir, 'out.jsonl'))).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('budget eviction order', () => {
  /** Turn 1 explores (Read), turns 2 and 3 act (Bash that builds, Write): results under the threshold used here, so the lossless pass keeps them. */
  const threshold = 1000;
  function episodes(): { path: string; explore: string; act1: string; act2: string } {
    const b = new SessionBuilder();
    b.user('How is the build configured?');
    const explore = b.toolCall('Read', { file_path: `${CWD}/build.config.ts` }, readOutput(11));
    b.assistant([{ type: 'text', text: 'The build has eleven steps.' }]);
    b.user('Run the build.');
    const act1 = b.toolCall('Bash', { command: 'npm run build' }, commandOutput(12));
    b.assistant([{ type: 'text', text: 'The build passes.' }]);
    b.user('Write a build note.');
    const act2 = b.toolCall('Bash', { command: 'npm run build -- --emit-note' }, commandOutput(12));
    b.assistant([{ type: 'text', text: 'Note written.' }]);
    return { path: b.write(), explore: explore.id, act1: act1.id, act2: act2.id };
  }

  it('evicts the oldest action episode before an older exploration', async () => {
    const { path, explore, act1, act2 } = episodes();
    const lossless = await trimSession(path, { threshold });
    const results = recordsOf(lossless.lines);
    for (const id of [explore, act1, act2]) expect(resultContent(results, id), 'kept whole by the lossless pass').not.toMatch(/^\[cmv:/);
    const result = await trimSession(path, { threshold, budget: lossless.output.tokens - 50 });
    const report = result.budget!;
    expect(report.met).toBe(true);
    expect(report.evicted.map((e) => [e.episode, e.kind, e.level])).toEqual([[1, 'action', 2]]);
    const records = recordsOf(result.lines);
    expect(resultContent(records, act1)).toMatch(/^\[cmv: Bash .*evicted/);
    expect(resultContent(records, act2)).toBe(resultContent(results, act2));
    expect(resultContent(records, explore)).toBe(resultContent(results, explore));
    await expectKeepsConversation(path, result);
  });

  it('lists every eviction in lifecycle order when everything must go', async () => {
    const { path } = episodes();
    const report = (await trimSession(path, { threshold, budget: 1 })).budget!;
    expect(report.met).toBe(false);
    expect(report.evicted.filter((e) => e.level === 2).map((e) => [e.episode, e.kind])).toEqual([
      [1, 'action'],
      [2, 'action'],
      [0, 'exploration'],
    ]);
    expect(orderFaults(report)).toEqual([]);
  });
});
