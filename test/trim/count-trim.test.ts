// countTrim (what analyze runs) counts what trimSession removes, without making the output: what
// the trim keeps is counted as trimSession counts it, what it removes is estimated (tokens/estimate.ts).

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countTrim, trimSession, type TrimCounts } from '../../src/trim/trim.js';
import { corpusFile, HAS_CORPUS, SAMPLE_DIR } from '../helpers/corpus.js';

function counted(t: TrimCounts) {
  const { usageRewritten: _rewritten, ...removed } = t.removed;
  const tokens = (b: TrimCounts['tokens']['before']) => ({ total: b.total, byKind: b.byKind, byTool: b.byTool, perEntry: b.perEntry.map((e) => [e.entry.line, e.tokens]) });
  const { tokens: _tokens, ...input } = t.input;
  return { input, outputTokens: t.output.tokens, outputLines: t.output.lines, removed, after: tokens(t.tokens.after), lines: t.index.lines.length };
}

const samples = ['coding', 'compacted', 'resumed', 'subagent', 'large-read-image'].map((n) => join(SAMPLE_DIR, `${n}.jsonl`));
const corpus = HAS_CORPUS ? ['spotter-4d5611e5-v2.1.39-compact-3MB.jsonl', 'happy-400429ba-v1.0.51-3MB.jsonl'].map(corpusFile) : [];

describe('countTrim', () => {
  it.each([...samples, ...corpus])(
    'counts %s as trimSession does',
    async (path) => {
      const full = await trimSession(path);
      const count = await countTrim(path);
      expect(count).not.toHaveProperty('verify');
      expect(counted(count)).toEqual(counted(full));
      expect(full.input.tokens).toBeGreaterThan(0);
      // What the trim removes, estimated: within 5% of its count (the corpus's worst session is 11.8%
      // off on 965 tokens removed; README), the entries the same.
      const removedCounted = full.input.tokens - full.output.tokens;
      const removedEstimated = count.input.tokens - count.output.tokens;
      expect(Math.abs(removedEstimated - removedCounted)).toBeLessThanOrEqual(Math.max(20, 0.05 * removedCounted));
      expect(count.tokens.before.perEntry.map((e) => e.entry.line)).toEqual(full.tokens.before.perEntry.map((e) => e.entry.line));
    },
    60_000,
  );
});
