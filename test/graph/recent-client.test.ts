// What today's client (2.1.50 and later) writes: Windows paths, commits a hook blocked behind a
// wrapper that exits 0, questions the session ends on.

import { describe, expect, it } from 'vitest';
import { pathLabel } from '../../src/graph/extract-state.js';
import { bashFacts } from '../../src/graph/bash-facts.js';
import { newState, toolStep } from '../../src/graph/rules/engine.js';
import { askedPart } from '../../src/graph/rules/recent-rules.js';

describe("today's client", () => {
  it('labels a Windows path inside the project relative to it, whatever the case of the drive', () => {
    expect(pathLabel('C:\\Users\\me\\app\\Converters\\A.cs', 'C:\\Users\\me\\app')).toBe('Converters/A.cs');
    expect(pathLabel('c:\\users\\me\\app\\README.md', 'C:\\Users\\me\\app')).toBe('README.md');
    expect(pathLabel('D:\\other\\x.cs', 'C:\\Users\\me\\app')).toBe('D:/other/x.cs');
    expect(pathLabel('/repo/src/a.ts', '/repo')).toBe('src/a.ts');
  });

  it('does not count a commit a pre-commit hook blocked as done work', () => {
    const state = newState();
    const { step } = toolStep('Bash', { command: 'rtk git add a.tsx && rtk git commit -m "Remove button"' }, 'ok ✓ 1 file changed FAILED: git commit $ bun test src/ error TS2307');
    bashFacts(step, state);
    expect(state.builder.finish(undefined, 1).nodes.filter((n) => n.label.startsWith('Committed'))).toEqual([]);
    const done = newState();
    bashFacts(toolStep('Bash', { command: 'git commit -m "Remove button"' }, '[main 1a2b3c] Remove button').step, done);
    expect(done.builder.finish(undefined, 1).nodes.some((n) => n.label === 'Committed: Remove button')).toBe(true);
  });

  it('keeps what a question asks, without the lead-in', () => {
    expect(askedPart('The pre-commit hook failed on typecheck - this is pre-existing. Should I commit with --no-verify?')).toBe('commit with --no-verify');
    expect(askedPart('Which database should we use?')).toBe('Which database should we use');
  });
});
