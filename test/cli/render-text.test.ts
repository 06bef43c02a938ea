// The text reports say what they count in words that agree with it: "1 edge", "1 trim in all",
// no "-0.0%", and records of an unknown type named, not "unknown entry types unknown".

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderGraph } from '../../src/cli/commands/graph.js';
import { renderHookStatus } from '../../src/cli/commands/hook.js';
import { renderStats } from '../../src/cli/commands/stats.js';
import { renderTrim } from '../../src/cli/commands/trim.js';
import { openSession } from '../../src/session/session.js';
import { sessionStats } from '../../src/analyze/session-stats.js';
import { trimSession } from '../../src/trim/trim.js';
import { SAMPLE_DIR } from '../helpers/corpus.js';
import type { SessionGraph } from '../../src/graph/model.js';

const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

describe('text reports', () => {
  it('graph: 1 turn, 2 nodes, 1 edge', () => {
    const node = { type: 'TASK', label: 'x', importance: 1, confidence: 1, firstTurn: 1, lastTurn: 1, evidence: [] };
    const graph = {
      sessionId: 's',
      turns: 1,
      lastAsk: null,
      nodes: [
        { ...node, id: 'a' },
        { ...node, id: 'b' },
      ],
      edges: [{ from: 'a', to: 'b', type: 'relates' }],
    } as unknown as SessionGraph;
    expect(plain(renderGraph(graph)).split('\n')[0]).toBe('s · 1 turn · 2 nodes, 1 edge');
  });

  it('hook status: 1 trim in all', () => {
    const trim = { at: new Date().toISOString(), by: 'size-guard' as const, path: '/x.jsonl', sessionId: 'abcdef12', bytesBefore: 2000, bytesAfter: 1000, tokensBefore: 100, tokensAfter: 100 };
    const text = plain(renderHookStatus({ scopes: [], trims: [trim], totals: { trims: 1, bytesSaved: 1000, tokensSaved: 0 }, logPath: '/log', recentMessages: [] }));
    expect(text).toContain('1 trim in all');
    expect(text).not.toContain('-0.0%');
  });

  it('stats: names the records of types cmv does not know, and those without a type', async () => {
    const stats = sessionStats(await openSession(join(SAMPLE_DIR, 'coding.jsonl')));
    const text = plain(renderStats({ ...stats, unknownTypes: { unknown: 2, 'fancy-new-type': 1 } }));
    expect(text).not.toContain('unknown entry types unknown');
    expect(text).toContain('without a type 2');
    expect(text).toContain('"fancy-new-type" 1');
  });

  it('trim: a trim that saves nothing reads 0.0%, never --0.0% or -0.0%', async () => {
    const result = await trimSession(join(SAMPLE_DIR, 'coding.jsonl'), { threshold: 10_000_000 });
    const text = plain(renderTrim({ result: { ...result, reduction: { tokens: 0, bytes: -0.0001 } } }));
    expect(text).not.toMatch(/-0\.0%|--/);
    expect(text).toMatch(/\(0\.0%\)/);
  });
});
