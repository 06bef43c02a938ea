// Usage from the log's own figures (one count per API response, however many lines it was
// written over), the token breakdown of the messages sent on resume, and the calibration fit.

import { describe, expect, it } from 'vitest';
import { summariseUsage, promptTokens } from '../../src/tokens/usage.js';
import { tokenBreakdown } from '../../src/tokens/breakdown.js';
import { calibrate } from '../../src/tokens/calibration.js';
import { countTokens } from '../../src/tokens/counter.js';
import { sessionOf, sessionRecords } from '../session/fixtures.js';

describe('usage', () => {
  it('counts a response split over two lines once, with its final figures, not their sum', () => {
    // One turn: response 1 is split over two lines (output 2, then 48), response 2 is one line.
    const usage = summariseUsage(sessionOf(sessionRecords({ turns: 1 })).conversation);
    expect(usage.apiCalls).toBe(2);
    expect(usage.outputTokens).toBe(48 + 120);
    expect(usage.cacheReadTokens).toBe(15_000 + 15_900);
    expect(usage.cacheWriteTokens).toBe(500 + 500);
    expect(usage.cacheWrite5mTokens).toBe(1000);
    expect(usage.inputTokens).toBe(6);
    expect(usage.lastContextTokens).toBe(3 + 500 + 15_900);
  });

  it('takes the larger figures of a split response even when its lines are out of order', () => {
    const records = sessionRecords({ turns: 1 });
    [records[1], records[2]] = [records[2], records[1]];
    expect(summariseUsage(sessionOf(records).conversation).outputTokens).toBe(48 + 120);
  });

  it("does not count Claude Code's <synthetic> error placeholders as API calls", () => {
    const records = sessionRecords({ turns: 1 });
    records.push({
      ...records[4],
      uuid: 'synthetic-1',
      parentUuid: records[4].uuid,
      isApiErrorMessage: true,
      message: { id: 'msg_synthetic', model: '<synthetic>', role: 'assistant', type: 'message', content: [{ type: 'text', text: 'API Error: 529' }], usage: { input_tokens: 0, output_tokens: 0 } },
    });
    expect(summariseUsage(sessionOf(records).conversation).apiCalls).toBe(2);
  });

  it('reports no calls for a log without usage figures', () => {
    const records = sessionRecords({ turns: 1 }).map((r) => {
      const message = r.message as Record<string, unknown>;
      const { usage: _, ...rest } = message;
      return { ...r, message: rest };
    });
    expect(summariseUsage(sessionOf(records).conversation)).toMatchObject({ apiCalls: 0, lastContextTokens: 0, outputTokens: 0 });
  });
});

describe('token breakdown', () => {
  it('counts the sent messages by kind and the tool results by tool', () => {
    const records = sessionRecords({ turns: 1 });
    const session = sessionOf(records);
    const breakdown = tokenBreakdown(session);
    const text = (i: number) => (records[i].message as { content: { text: string }[] }).content[0].text;
    const prompt = (records[0].message as { content: string }).content;
    const result = (records[3].message as { content: { content: string }[] }).content[0].content;
    expect(breakdown.byKind.userText).toBe(countTokens(prompt));
    expect(breakdown.byKind.assistantText).toBe(countTokens(text(1)) + countTokens(text(4)));
    expect(breakdown.byKind.toolUseInput).toBe(countTokens(JSON.stringify({ file_path: '/home/me/my_app/src/report0.py' })));
    expect(breakdown.byKind.toolResult).toBe(countTokens(result));
    expect(breakdown.byTool).toEqual({ Read: countTokens(result) });
    expect(breakdown.total).toBe(Object.values(breakdown.byKind).reduce((a, b) => a + b, 0));
    expect(breakdown.perEntry.map((p) => p.entry.line)).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('calibration', () => {
  it('gives no ratio when the log has fewer than 3 usage figures', () => {
    for (const turns of [0, 1]) {
      const session = sessionOf(sessionRecords({ turns }));
      const calibration = calibrate(session.conversation, tokenBreakdown(session));
      expect(calibration.ratio).toBeNull();
      expect(calibration.overheadTokens).toBeNull();
      expect(calibration.samples).toBeLessThan(3);
    }
  });

  it('fits a ratio and an overhead once there are 3 or more API calls', () => {
    const session = sessionOf(sessionRecords({ turns: 3 }));
    const calibration = calibrate(session.conversation, tokenBreakdown(session));
    expect(calibration.samples).toBe(6);
    expect(calibration.ratio).not.toBeNull();
    expect(calibration.r2).toBeGreaterThan(0);
    // Overhead + ratio * counted reproduces the first call's prompt size (nothing counted yet) roughly.
    const first = promptTokens(session.conversation.responses[0].usage!);
    expect(Math.abs((calibration.overheadTokens ?? 0) - first)).toBeLessThan(first);
  });
});

describe('token breakdown of local command output', () => {
  it('counts a local_command system line, which Claude Code sends as user text', () => {
    const records = sessionRecords({ turns: 1 });
    const content = '<local-command-stdout>Total cost: $0.12\nTotal duration (API): 41s</local-command-stdout>';
    records.push({ ...records[0], type: 'system', subtype: 'local_command', content, level: 'info', message: undefined, uuid: 'local-1', parentUuid: records[4].uuid });
    const session = sessionOf(records);
    const local = session.conversation.entries.find((e) => e.uuid === 'local-1')!;
    const breakdown = tokenBreakdown(session, [local]);
    expect(breakdown.byKind.userText).toBe(countTokens(content));
    expect(breakdown.total).toBe(countTokens(content));
  });
});
