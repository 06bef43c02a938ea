// A copy cmv makes never makes a tool book cost to it: a Claude config folder gives the same totals,
// in cmv analyze and in ccusage (the npm package, run as a user runs it), before and after a trim,
// a compaction and branches (trimmed and whole) of one of its sessions.

import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox, installSession, type Sandbox } from '../store/helpers.js';
import { SAMPLE_DIR } from '../helpers/corpus.js';
import { trimToDestination } from '../../src/trim/apply.js';
import { compactSession } from '../../src/graph/compact.js';
import { openSession } from '../../src/session/session.js';
import { takeSnapshot } from '../../src/store/snapshot.js';
import { branchSnapshot } from '../../src/store/branch.js';
import { analysePaths } from '../../src/analyze/analysis.js';
import { builtinModels } from '../../src/cost/models.js';
import { listSessions } from '../../src/session/listing.js';
import { deriveRecord } from '../../src/session/derived.js';
import { readUsage } from '../../src/session/usage-record.js';
import { CCUSAGE_PLATFORM, runCcusage } from '../helpers/ccusage.js';

interface CcusageTotals {
  totalCost: number;
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
}

export function ccusageTotals(configDir: string): CcusageTotals {
  const run = runCcusage(configDir);
  if (run.status !== 0) throw new Error(`ccusage failed: ${String(run.stderr)}`);
  return JSON.parse(String(run.stdout)).totals as CcusageTotals;
}

async function cmvTotal(box: Sandbox): Promise<number> {
  const report = await analysePaths([join(box.configDir, 'projects')], { models: [...builtinModels()], jobs: 1 });
  return report.aggregate.cost;
}

const CWD = '/home/me/derived-cost-app';

describe.skipIf(!CCUSAGE_PLATFORM)('copies cmv makes cost nothing, in cmv and in ccusage', () => {
  let box: Sandbox;
  let original: string;
  beforeAll(() => {
    return sandbox().then((b) => {
      box = b;
      const log = readFileSync(join(SAMPLE_DIR, 'coding.jsonl'), 'utf8');
      const id = JSON.parse(log.split('\n')[0]).sessionId ?? 'c0ffee00-0000-4000-8000-000000000001';
      // The sample's usage splits its cache writes as 0 + 0 beside a total of thousands, which no
      // real response does: ccusage 20 prices the split, cmv the total. Split as the total says.
      const consistent = log.replaceAll(
        /"cache_creation_input_tokens":(\d+)(.*?)"cache_creation":\{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":0\}/g,
        (_all, total: string, between: string) => `"cache_creation_input_tokens":${total}${between}"cache_creation":{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":${total}}`,
      );
      original = installSession(box, CWD, id, consistent.replaceAll(/"cwd":"[^"]*"/g, `"cwd":${JSON.stringify(CWD)}`));
    });
  });
  afterAll(() => box?.cleanup());

  it('gives the same totals before and after trim, compact and branch', async () => {
    const before = ccusageTotals(box.configDir);
    const cmvBefore = await cmvTotal(box);
    expect(before.totalCost).toBeGreaterThan(0.1);
    expect(cmvBefore).toBeCloseTo(before.totalCost, 2);

    const trimmed = await trimToDestination(original, {}, { kind: 'new-session' });
    expect(trimmed.written).toBeDefined();
    const compacted = compactSession(await openSession(original), { keep: 5, newSessionId: 'c0ffee00-0000-4000-8000-0000000000c1' });
    writeFileSync(join(original, '..', 'c0ffee00-0000-4000-8000-0000000000c1.jsonl'), Buffer.concat(compacted.lines.flatMap((l) => [l, Buffer.from('\n')])));
    const snapshot = await takeSnapshot(box.store, original, { name: 'base' });
    expect(snapshot).toBeDefined();
    await branchSnapshot(box.store, 'base', { env: box.env });
    await branchSnapshot(box.store, 'base', { env: box.env, trim: false });
    // A copy of a copy: trimmed again.
    await trimToDestination(trimmed.written!, {}, { kind: 'new-session' });

    const files = readdirSync(join(original, '..')).filter((f) => f.endsWith('.jsonl'));
    expect(files.length).toBe(6);
    const after = ccusageTotals(box.configDir);
    expect(after.totalCost).toBeCloseTo(before.totalCost, 9);
    expect(after.outputTokens).toBe(before.outputTokens);
    expect(after.cacheReadTokens).toBe(before.cacheReadTokens);
    expect(await cmvTotal(box)).toBeCloseTo(cmvBefore, 6);

    // And they are shown as what they are.
    const report = await analysePaths([join(box.configDir, 'projects')], { models: [...builtinModels()], jobs: 1 });
    expect(report.aggregate.derived).toBe(5);
    expect(
      report.sessions
        .filter((s) => s.derivedFrom)
        .map((s) => s.derivedFrom!.by)
        .sort(),
    ).toEqual(['branch', 'branch', 'compact', 'trim', 'trim']);
    const listed = await listSessions({ configDirs: [box.configDir] });
    expect(listed.filter((s) => s.derivedFrom).length).toBe(5);
  }, 120_000);
});

describe('a copy of a response with an advisor', () => {
  it("zeroes the advisor's iterations too, which hold tokens the top-level figures leave out", () => {
    const usage = {
      input_tokens: 3,
      output_tokens: 48,
      cache_read_input_tokens: 200,
      cache_creation_input_tokens: 0,
      iterations: [
        { type: 'message', input_tokens: 3, output_tokens: 48, cache_read_input_tokens: 200, cache_creation_input_tokens: 0 },
        { type: 'advisor_message', model: 'claude-opus-5', input_tokens: 81_821, output_tokens: 6_523, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
      ],
    };
    const record = { type: 'assistant', requestId: 'req_1', message: { id: 'msg_1', role: 'assistant', content: [], usage } };
    expect(readUsage(usage)?.advisorCalls?.[0]).toMatchObject({ model: 'claude-opus-5', inputTokens: 81_821, outputTokens: 6_523 });
    expect(deriveRecord(record, { from: 'original', by: 'trim', tag: 'c0ffee' })).toBe(true);
    const copied = readUsage(record.message.usage)!;
    expect(copied.advisorCalls?.map((a) => a.inputTokens + a.outputTokens)).toEqual([0]);
    expect(copied.inputTokens + copied.outputTokens + copied.cacheReadTokens).toBe(0);
  });
});
