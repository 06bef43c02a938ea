// countTrim (what analyze runs) counts what trimSession removes, without making the output: the
// same lines, entries and rules; its long texts, kept or removed, are estimated (tokens/estimate.ts).

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countTrim, trimSession, type TrimCounts } from '../../src/trim/trim.js';
import { corpusFile, HAS_CORPUS, SAMPLE_DIR } from '../helpers/corpus.js';

function counted(t: TrimCounts) {
  const { usageRewritten: _rewritten, ...removed } = t.removed;
  const { tokens: _tokens, ...input } = t.input;
  const entries = (b: TrimCounts['tokens']['before']) => b.perEntry.map((e) => e.entry.line);
  return {
    input,
    outputLines: t.output.lines,
    removed,
    before: entries(t.tokens.before),
    after: entries(t.tokens.after),
    tools: Object.keys(t.tokens.after.byTool).sort(),
    lines: t.index.lines.length,
  };
}

/** How far an estimated count is from the exact one, as a share of it. */
function off(estimate: number, exact: number): number {
  return Math.abs(estimate - exact) / Math.max(1, exact);
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
      // The tokens before and after, estimated: within 5% of the count (the samples are 3.9% off at
      // worst); what the trim removes within 5% (the corpus's worst session is 6.2% off; README).
      expect(off(count.input.tokens, full.input.tokens)).toBeLessThan(0.05);
      expect(off(count.output.tokens, full.output.tokens)).toBeLessThan(0.05);
      const removedCounted = full.input.tokens - full.output.tokens;
      const removedEstimated = count.input.tokens - count.output.tokens;
      expect(Math.abs(removedEstimated - removedCounted)).toBeLessThanOrEqual(Math.max(20, 0.05 * removedCounted));
    },
    60_000,
  );
});
