import { describe, expect, it } from 'vitest';
import { checkName, closestName, nameProblem, parseRef, refOf, sessionRef, unknownName } from '../../src/store/names.js';

describe('snapshot names', () => {
  it('accepts plain names and refuses anything git or a shell could misread', () => {
    for (const ok of ['auth-work', 'v1.2', 'a_b', '3f2a9c1e-1']) expect(nameProblem(ok)).toBeUndefined();
    for (const bad of ['', 'a..b', '../x', 'a/b', '-flag', '.hidden', 'x.lock', 'trailing.', 'sp ace', 'a~1', 'a^', 'a:b', 'a\\b', 'x'.repeat(101)]) {
      expect(nameProblem(bad), bad).toBeDefined();
    }
    expect(() => checkName('a..b')).toThrow(/not a valid snapshot name/);
  });

  it('maps names to refs and back, and nothing else', () => {
    expect(refOf('snapshot', 'a')).toBe('refs/cmv/snapshots/a');
    expect(parseRef('refs/cmv/branches/b')).toEqual({ kind: 'branch', name: 'b' });
    expect(parseRef('refs/heads/main')).toBeUndefined();
    expect(parseRef('refs/cmv/snapshots/a..b')).toBeUndefined();
    expect(parseRef('refs/cmv/snapshots/x/y')).toBeUndefined();
    expect(sessionRef('../../etc')).toBeUndefined();
  });

  it('suggests the closest known name for a typo, and nothing for a stranger', () => {
    expect(closestName('auth-wrk', ['auth-work', 'billing'])).toBe('auth-work');
    expect(closestName('zzzzzz', ['auth-work', 'billing'])).toBeUndefined();
    const error = unknownName('auth-wrk', ['auth-work']);
    expect(error.code).toBe('NOT_FOUND');
    expect(error.hint).toContain('did you mean "auth-work"?');
  });
});
