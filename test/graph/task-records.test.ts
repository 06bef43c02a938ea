// Tasks done and left open, grounded in what the log records: the session's task list, its plan,
// its tracker, and the reply's own lists; and how the resume block shows them.

import { describe, expect, it } from 'vitest';
import { buildGraph } from '../../src/graph/build-graph.js';
import { buildResume } from '../../src/graph/resume-block.js';
import { blockItems, graphItems } from '../../src/graph/memory-score.js';
import { openItems } from '../../src/graph/rules/text-rules.js';
import { scriptSession, type ScriptStep } from './script-session.js';

const graphOf = (steps: ScriptStep[]) => buildGraph(scriptSession(steps));
const todo = (content: string, status: string) => ({ content, status, activeForm: content });
const edit = (path: string): ScriptStep => ({
  tool: 'Edit',
  input: { file_path: `/home/me/app/${path}`, old_string: 'a', new_string: 'b' },
  result: `The file /home/me/app/${path} has been updated successfully.`,
});

describe('the session task list', () => {
  it('drops an open todo that a later TodoWrite list leaves out, and keeps the done ones', () => {
    const graph = graphOf([
      { user: 'Port this project to Rust' },
      { tool: 'TodoWrite', input: { todos: [todo('Port math module', 'in_progress'), todo('Write comprehensive tests', 'pending')] } },
      edit('src/math.rs'),
      { tool: 'TodoWrite', input: { todos: [todo('Port math module', 'completed')] } },
      { assistant: 'The port is done.' },
    ]);
    const items = graphItems(graph);
    expect(items.pending).toEqual([]);
    expect(items.completed).toContain('Port math module');
  });

  it('does not repeat as done tasks the report of a turn that moved the task list', () => {
    const graph = graphOf([
      { user: 'Consolidate the logs into one file' },
      { tool: 'TodoWrite', input: { todos: [todo('Change Init() to use entire.log', 'completed'), todo('Update logging.md documentation', 'completed')] } },
      edit('logging/logger.go'),
      { assistant: 'Summary:\n- Changed the log file from <id>.log to entire.log\n- Updated the doc comment to reflect the new path' },
    ]);
    expect(graphItems(graph).completed).toEqual(['Change Init() to use entire.log', 'Update logging.md documentation']);
  });

  it('keeps the reply report when no task list moved in its turn', () => {
    const graph = graphOf([
      { user: 'Fix the release timeout' },
      edit('.goreleaser.yaml'),
      { assistant: 'Summary:\n- Increased the notarization timeout from 20m to 45m\n- Added retry: 1 to notarization' },
    ]);
    expect(graphItems(graph).completed).toEqual(expect.arrayContaining(['Increased the notarization timeout from 20m to 45m', 'Added retry: 1 to notarization']));
  });

  it('counts the goal as a done task only when the log does not record the work item by item', () => {
    const steps: ScriptStep[] = [{ user: 'Add a multiply function' }, edit('src/math.py'), { assistant: 'Added `multiply` to src/math.py.' }];
    expect(graphItems(graphOf(steps)).completed.some((l) => /multiply function/.test(l))).toBe(true);
    const committed = graphOf([
      ...steps,
      { tool: 'Bash', input: { command: 'git commit -m "Add multiply function with test"' }, result: '[main 1a2b3c4] Add multiply function with test\n 1 file changed' },
    ]);
    const done = graphItems(committed).completed;
    expect(done.some((l) => /^Committed: Add multiply function with test/.test(l))).toBe(true);
    expect(done.some((l) => /^Add a multiply function/.test(l))).toBe(false);
    expect(blockItems(buildResume(committed, { budget: 300 })).completed.some((l) => /^Add a multiply function/.test(l))).toBe(false);
  });
});

describe('plans', () => {
  it('makes the plan file written and approved one done task that names the file', () => {
    const graph = graphOf([
      { user: 'Plan the lint setup' },
      {
        tool: 'Write',
        input: { file_path: '/home/me/app/plan.md', content: '# Plan: Setup Code Quality Tools\n\n## Task 1: Install Credo\n' },
        result: 'File created successfully at: /home/me/app/plan.md',
        sidecar: { type: 'create' },
      },
      { tool: 'ExitPlanMode', input: {}, result: 'User has approved your plan.' },
    ]);
    expect(graphItems(graph).completed).toContain('Plan written to plan.md and approved: Setup Code Quality Tools');
    expect(graphItems(graph).pending).toContain('Install Credo');
  });
});

describe('work left open at the end', () => {
  it('makes options the user is asked to pick from one open decision', () => {
    const text = 'Since you could not reproduce it, should I:\n\n1. Delete the `ISSUE.md` file since it is stale?\n2. Or update it to cover only the batching?\n3. Or leave it as-is?';
    expect(openItems(text)).toEqual(['Decide: Delete the ISSUE.md file since it is stale, or update it to cover only the batching, or leave it as-is']);
  });

  it('reads the one thing left from a labelled line, on its own line or the next', () => {
    expect(openItems('The CLI sends base64.\n\n**Recommended Fix:**\nImplement `tweetnacl.secretbox` encryption in the session service. It matches the app.')).toEqual([
      'Implement tweetnacl.secretbox encryption in the session service',
    ]);
    expect(openItems('Next step: run the migration on staging')).toEqual(['run the migration on staging']);
    expect(openItems('The fix is in.')).toEqual([]);
  });

  it('keeps findings offered for the user to take up as items of their own', () => {
    const text = 'Found 2 opportunities:\n\n1. Move timestamp utilities to a shared location\n2. Simplify the multi-session prompt\n\nWant me to apply these?';
    expect(openItems(text)).toEqual(['Move timestamp utilities to a shared location', 'Simplify the multi-session prompt']);
  });
});

describe('the resume block', () => {
  it('shows two tasks that share only their verb of work, and keeps the verb at the standard tier', () => {
    const graph = graphOf([
      { user: 'Consolidate the logs into one file' },
      {
        tool: 'TodoWrite',
        input: { todos: [todo('Update logger_test.go to expect entire.log', 'completed'), todo('Update logging.md documentation', 'completed'), todo('Add WithAgent to hooks_git_cmd.go', 'pending')] },
      },
      edit('logging/logger_test.go'),
    ]);
    const block = blockItems(buildResume(graph, { budget: 300 }));
    expect(block.completed).toEqual(expect.arrayContaining(['Update logger_test.go to expect entire.log', 'Update logging.md documentation']));
    expect(block.pending).toEqual(['Add WithAgent to hooks_git_cmd.go']);
  });

  it('lists the tasks the log records before those only a reply reports', () => {
    const graph = graphOf([
      { user: 'Ship the logging change' },
      edit('logging/logger.go'),
      { assistant: 'Summary:\n- Updated the doc comment to reflect the new path\n- Added a testLogFilePath helper' },
      { user: 'commit this' },
      { tool: 'Bash', input: { command: 'git commit -m "Consolidate logging to a single file"' }, result: '[main 1a2b3c4] Consolidate logging to a single file' },
      { assistant: 'Committed.' },
    ]);
    const done = blockItems(buildResume(graph, { budget: 300 })).completed;
    expect(done[0]).toMatch(/^Committed: Consolidate logging/);
  });
});
