// What today's client (2.1.50 and later) writes: Windows paths, commits a hook blocked behind a
// wrapper that exits 0, questions the session ends on.

import { describe, expect, it } from 'vitest';
import { pathLabel } from '../../src/graph/extract-state.js';
import { bashFacts, commandSegments, hookLabel } from '../../src/graph/bash-facts.js';
import { RULES, runRules } from '../../src/graph/rules/index.js';
import { newState, toolStep } from '../../src/graph/rules/engine.js';
import { askedPart } from '../../src/graph/rules/recent-rules.js';

describe("today's client", () => {
  it('labels a Windows path inside the project relative to it, whatever the case of the drive', () => {
    expect(pathLabel('C:\\Users\\me\\app\\Converters\\A.cs', 'C:\\Users\\me\\app')).toBe('Converters/A.cs');
    expect(pathLabel('c:\\users\\me\\app\\README.md', 'C:\\Users\\me\\app')).toBe('README.md');
    expect(pathLabel('D:\\other\\x.cs', 'C:\\Users\\me\\app')).toBe('D:/other/x.cs');
    expect(pathLabel('/repo/src/a.ts', '/repo')).toBe('src/a.ts');
  });

  it('labels a path outside the folder a tool ran in relative to the project folder when inside it', () => {
    expect(pathLabel('/repo/components/A.tsx', '/repo/todo-app', '/repo')).toBe('components/A.tsx');
    expect(pathLabel('/repo/todo-app/src/a.ts', '/repo/todo-app', '/repo')).toBe('src/a.ts');
    expect(pathLabel('/tmp/x.txt', '/repo/todo-app', '/repo')).toBe('/tmp/x.txt');
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

  it('leaves a blocked commit pending until a later commit goes through, and names what the hook stopped on', () => {
    const blocked =
      "ok ✓ 1 file changed\nFAILED: git commit\n$ bun test src/\nerror: Item 3 failed\nsrc/a.ts(15,39): error TS2307: Cannot find module './assets' or its corresponding type declarations.\nhusky - pre-commit script failed (code 2)";
    expect(hookLabel(blocked)).toBe("git commit blocked by pre-commit hook: error TS2307: Cannot find module './assets'");
    const state = newState();
    bashFacts(toolStep('Bash', { command: 'rtk git commit -m "Remove button"' }, blocked).step, state);
    const pending = () =>
      state.builder
        .finish(undefined, 1)
        .nodes.filter((n) => n.type === 'TASK' && n.status === 'pending')
        .map((n) => n.label);
    expect(pending()).toEqual(['Commit: Remove button']);
    bashFacts(toolStep('Bash', { command: 'git commit --no-verify -m "Remove button"' }, '[main 1a2b] Remove button').step, state);
    expect(pending()).toEqual([]);
  });

  it('says a push behind its remote was rejected, and reads PowerShell and rtk-wrapped commands as shell commands', () => {
    const state = newState();
    runRules(
      RULES,
      toolStep('PowerShell', { command: 'git push origin main' }, 'Exit code 1\n ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs', { isError: true }),
      state,
    );
    expect(state.builder.finish(undefined, 1).nodes.some((n) => n.type === 'ERROR' && n.label === 'git push rejected: remote has work not pulled locally')).toBe(true);
    expect(commandSegments('rtk git status && rtk bun run lint')).toEqual(['git status', 'bun run lint']);
  });

  it('keeps what a question asks, without the lead-in', () => {
    expect(askedPart('The pre-commit hook failed on typecheck - this is pre-existing. Should I commit with --no-verify?')).toBe('commit with --no-verify');
    expect(askedPart('Which database should we use?')).toBe('Which database should we use');
  });
});
