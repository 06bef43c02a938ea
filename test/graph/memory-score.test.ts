// memorybench's F1 as the README of ../shared/bench/realgraph states it.

import { describe, expect, it } from 'vitest';
import { covers, scoreCategory, scoreSession, scoreWords } from '../../src/graph/memory-score.js';

describe('memorybench scoring', () => {
  it('splits a path into its parts and drops stopwords and one-letter words', () => {
    expect([...scoreWords('Fixed the bug in api/auth.py, a b')].sort()).toEqual(['api', 'api/auth.py', 'auth', 'bug', 'fixed', 'py']);
  });

  it('finds a truth item when an output item holds 60% of its words, not less', () => {
    expect(covers('Added runtime/trace support via ENTIRE_TRACE', 'Added runtime/trace support via ENTIRE_TRACE env var')).toBe(true);
    expect(covers('commit: Add multiply_numbers function with test', 'Tests pass; committed Add multiply_numbers function with test')).toBe(false);
  });

  it('scores precision over output items and recall over truth items', () => {
    const s = scoreCategory(['Fixed the PostHog timeout', 'keep going'], ['PostHog timeout fixed', 'Cleaned up debug code']);
    expect(s.precision).toBe(0.5);
    expect(s.recall).toBe(0.5);
    expect(s.missed).toEqual(['Cleaned up debug code']);
    expect(s.spurious).toEqual(['keep going']);
  });

  it('skips a category empty on both sides, and one the truth does not annotate', () => {
    const out = { completed: ['a thing done'], pending: [], decisions: [], files: [], errors: ['a problem met'] };
    const score = scoreSession(out, { completed_tasks: ['a thing done'], pending_tasks: [], decisions: [], files: [] });
    expect(Object.keys(score.categories)).toEqual(['completed']);
    expect(score.f1).toBe(1);
  });
});
