// Finished work, open work and problems met, grounded in what the log proves (src/graph/rules/work-rules.ts
// and the check failures of src/graph/bash-facts.ts): checks whose failure a pipe hid, commits a hook
// blocked or the log ended on, and the labels a person would write for them.

import { describe, expect, it } from 'vitest';
import { buildGraph } from '../../src/graph/build-graph.js';
import { graphItems } from '../../src/graph/memory-score.js';
import { failureLines, hookLabel, ownLabel, testCounts } from '../../src/graph/bash-facts.js';
import { checkFailedInOutput, passiveDone } from '../../src/graph/rules/work-rules.js';
import { doneItems, doneLead } from '../../src/graph/rules/text-rules.js';
import { RULES, newState, runRules } from '../../src/graph/rules/index.js';
import { toolStep } from '../../src/graph/rules/engine.js';
import { scriptSession, type ScriptStep } from './script-session.js';

const graphOf = (steps: ScriptStep[]) => buildGraph(scriptSession(steps));
const edit = (path: string): ScriptStep => ({
  tool: 'Edit',
  input: { file_path: `/home/me/app/${path}`, old_string: 'a', new_string: 'b' },
  result: `The file /home/me/app/${path} has been updated successfully.`,
});

describe('a check whose failure a pipe hid (error.masked-check)', () => {
  it('is an error fixed by the later green run of the same operation', () => {
    const graph = graphOf([
      { user: 'Add session-end hooks' },
      edit('hooks.go'),
      {
        tool: 'Bash',
        input: { command: 'mise run lint 2>&1 | head -80' },
        result: '[lint] $ golangci-lint run ./...\ncmd/hooks.go:189:19: Error return value of `paths.ReadCurrentSession` is not checked (errcheck)\n1 issues:\n[lint] ERROR task failed',
      },
      edit('hooks.go'),
      { tool: 'Bash', input: { command: 'mise run lint 2>&1 | head -30' }, result: '[lint] $ golangci-lint run ./...\n0 issues.' },
    ]);
    const error = graph.nodes.find((n) => n.type === 'ERROR');
    expect(error?.label).toBe('errcheck: Error return value of paths.ReadCurrentSession is not checked');
    expect(error?.status).toBe('completed');
    expect(error?.rules).toContain('error.masked-check');
  });

  it('reads failure from the output, not from any error word in a passing run', () => {
    expect(checkFailedInOutput('--- FAIL: TestHooks (0.01s)\nFAIL')).toBe(true);
    expect(checkFailedInOutput(' 1351 pass\n 114 fail\nRan 1465 tests')).toBe(true);
    expect(checkFailedInOutput("error: unrecognized subcommand 'bun'")).toBe(true);
    expect(checkFailedInOutput(' 1329 pass\n 0 fail\n[Parser] error: could not parse (expected in this test)')).toBe(false);
    expect(checkFailedInOutput('0 issues.')).toBe(false);
  });

  it('leaves a red run of chosen tests alone (writing a test, then making it pass)', () => {
    const state = newState();
    const fired = runRules(RULES, toolStep('Bash', { command: 'go test ./x/ -run "TestNew" -v 2>&1 | tail -20' }, '--- FAIL: TestNew (0.00s)\nFAIL'), state);
    expect(fired).not.toContain('error.masked-check');
    expect(state.builder.all('ERROR')).toEqual([]);
  });
});

describe('labels of check failures', () => {
  it('names the program that could not parse its arguments', () => {
    expect(ownLabel("unrecognized subcommand 'bun'", 'rtk bun run test 2>&1 | head -100')).toBe("rtk: unrecognized subcommand 'bun'");
    expect(ownLabel('cannot find module x', 'rtk bun run test')).toBe('cannot find module x');
  });

  it('gives a Biome diagnostic as the tool, what it checks and the file', () => {
    const out = '$ biome check --error-on-warnings\n at frontend/src/components/RemediateTab.tsx format ━━━━━━━━━━\n\n  × Formatter would have printed the following content:\n';
    expect(failureLines(out)).toEqual(['biome formatter error in RemediateTab.tsx']);
  });

  it('says a Go test is failing, and leaves out bun\'s "script exited" line', () => {
    expect(failureLines('--- FAIL: TestResume_SessionLogAlreadyExists (1.2s)\nFAIL')).toEqual(['TestResume_SessionLogAlreadyExists failing']);
    expect(failureLines('error: script "lint" exited with code 1')).toEqual([]);
  });

  it("groups a linter's findings of one run as a person lists them, and keeps a single one as it is", () => {
    expect(failureLines('main.go:40:2: G304: Potential file inclusion via variable (gosec)\nmain.go:41:2: G104: Errors unhandled (gosec)\n2 issues:')).toEqual([
      'gosec G304/G104 lint errors in main.go',
    ]);
    expect(failureLines('hooks.go:189:19: Error return value of `x` is not checked (errcheck)\n1 issues:')).toEqual(['errcheck: Error return value of x is not checked']);
  });

  it('says which package npm could not find, once', () => {
    const out =
      "npm error code E404\nnpm error 404 Not Found - GET https://registry.npmjs.org/@types%2ftweetnacl - Not found\nnpm error 404\nnpm error 404  '@types/tweetnacl@*' is not in this registry.\nnpm error 404\nnpm error 404 Note that you can install from a";
    expect(failureLines(out)).toEqual(['@types/tweetnacl not in registry (E404)']);
  });

  it('counts bun test results', () => {
    expect(testCounts(' 1351 pass\n 114 fail\n 114 errors')).toBe('1351 passed, 114 failed');
  });

  it('names the checks a pre-commit hook ran and failed, from its report printed as one escaped string too', () => {
    expect(hookLabel('Pre-commit validation failed:\\n\\n[FORMAT] Code is not formatted.\\n\\n[CREDO]\\nChecking 114 source files')).toBe(
      'git commit blocked by pre-commit hook: format, credo failed',
    );
  });

  it('says how many tests a pre-commit hook found failing', () => {
    expect(hookLabel('$ bun test src/\n 1351 pass\n 114 fail\nerror: script "test" exited with code 1')).toBe('git commit blocked by pre-commit hook: 114 tests failed');
  });

  it('keeps the shell code of a program it could not find, and no error for a call the client cancelled', () => {
    const graph = graphOf([
      { user: 'Run the script' },
      edit('gen.py'),
      { tool: 'Bash', input: { command: 'python gen.py' }, result: 'Exit code 127\n/bin/bash: line 1: python: command not found', isError: true },
      { tool: 'Bash', input: { command: 'bun run lint' }, result: '<tool_use_error>Sibling tool call errored</tool_use_error>', isError: true },
    ]);
    expect(graphItems(graph).errors).toEqual(['python: command not found (exit code 127)']);
  });
});

describe('commits that did not go through', () => {
  it("a commit that failed printing its hook's test log is blocked, and pending until a commit goes through", () => {
    const commit = (flags: string, result: string, isError: boolean): ScriptStep => ({
      tool: 'Bash',
      input: { command: `git add CHANGELOG.md && git commit -m "Release version 0.3.0"${flags}` },
      result,
      isError,
    });
    const blocked = graphOf([{ user: 'Create release 0.3.0' }, edit('CHANGELOG.md'), commit('', 'Exit code 1\n$ bun test src/\n 1351 pass\n 114 fail\nerror: script "test" exited with code 1', true)]);
    expect(graphItems(blocked).errors).toEqual(['git commit blocked by pre-commit hook: 114 tests failed']);
    expect(graphItems(blocked).pending).toEqual(['Commit: Release version 0.3.0']);
    const through = graphOf([
      { user: 'Create release 0.3.0' },
      edit('CHANGELOG.md'),
      commit('', 'Exit code 1\n$ bun test src/\n 1351 pass\n 114 fail', true),
      commit(' --no-verify', '[main 19729ce] Release version 0.3.0\n 1 file changed', false),
    ]);
    expect(graphItems(through).pending).toEqual([]);
    expect(graphItems(through).completed).toContain('Committed: Release version 0.3.0');
  });

  it('a commit the log ends on, without a result, is pending (pending.unanswered-commit)', () => {
    const state = newState();
    const fired = runRules(RULES, toolStep('Bash', { command: 'git commit -m "Rename agent-plugins to skills"' }, '', { answered: false }), state);
    expect(fired).toContain('pending.unanswered-commit');
    expect(state.builder.all('TASK').map((t) => [t.label, t.status])).toEqual([['Commit: Rename agent-plugins to skills', 'pending']]);
  });
});

describe('reports of finished work', () => {
  it('reads items after a ✅ mark and lines led by the file in bold', () => {
    expect(doneItems('Summary:\n- ✅ Created `number_generator.py` and `data.txt` (in parallel)\n- ✅ Fixed the python call')).toEqual([
      'Created number_generator.py and data.txt (in parallel)',
      'Fixed the python call',
    ]);
    expect(doneItems('**`strategy/manual_commit_test.go`** - Added 3 regression tests covering all bug scenarios.')).toEqual(['Added 3 regression tests covering all bug scenarios']);
  });

  it('does not read a bold name heading sub-items as work done ("**Committed Checkpoints section** - Updated to show:")', () => {
    expect(
      doneItems('Done. Updated `docs/sessions.md` with:\n\n1. **Committed Checkpoints section** - Updated to show:\n   - Multi-session structure\n2. Added a Concurrent Sessions section'),
    ).toEqual(['Added a Concurrent Sessions section']);
  });

  it('reads "Done. I updated X in file to ..." without the file', () => {
    expect(doneLead('Done. I updated `TestLogging_IncludesContextValues` in `logger_test.go` to also verify that the agent name appears in the JSON log output.')).toBe(
      'Updated TestLogging_IncludesContextValues to also verify that the agent name appears in the JSON log',
    );
  });

  it('reads a report in the passive (report.passive-done), not a negation or an aside', () => {
    expect(passiveDone('Done. The issues fixed in each row are now sorted alphabetically by their summary text.')).toBe('Issues fixed in each row sorted alphabetically by their summary text');
    expect(passiveDone('CLAUDE.md has been created with comprehensive documentation of the TODO app project.')).toBe('CLAUDE.md created with comprehensive documentation of the TODO app project');
    expect(passiveDone('Done. Nothing has been changed yet.')).toBeUndefined();
    expect(passiveDone('Good - duplicate helpers are unused since the shared component handles them.')).toBeUndefined();
  });
});
