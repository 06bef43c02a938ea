// Grounded extraction on real logs: the task list with its status history, tests and the errors
// a green re-run fixes, subagents with their reports, decisions with their why.

import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { openSession } from '../../src/session/session.js';
import { buildGraph } from '../../src/graph/build-graph.js';
import { parsePlan } from '../../src/graph/rules/plan.js';
import { taskReasons } from '../../src/graph/rules/tool-rules.js';
import type { GraphNode, SessionGraph } from '../../src/graph/model.js';
import { HAS_CORPUS, SAMPLE_DIR, corpusFile } from '../helpers/corpus.js';

async function graphOf(path: string): Promise<SessionGraph> {
  return buildGraph(await openSession(path));
}

function nodes(graph: SessionGraph, type: GraphNode['type']): GraphNode[] {
  return graph.nodes.filter((n) => n.type === type);
}

function edgesBetween(graph: SessionGraph, from: GraphNode, to: GraphNode): string[] {
  return graph.edges.filter((e) => e.from === from.id && e.to === to.id).map((e) => e.type);
}

describe('coding.jsonl (TodoWrite, a failing test and its fix, a rejected MultiEdit)', async () => {
  const graph = await graphOf(join(SAMPLE_DIR, 'coding.jsonl'));

  it('takes the goal from the first real prompt', () => {
    expect(nodes(graph, 'GOAL').map((n) => n.label)).toEqual(["The January report from tally is missing expenses: anything dated on the 31st doesn't show up in the totals"]);
  });

  it('has every TodoWrite item, completed as the last list says, with the lines it came from', () => {
    const todos = nodes(graph, 'TASK').filter((n) => n.rules?.includes('task.todowrite'));
    expect(todos.map((t) => t.label).sort()).toEqual([
      'Fix the date range check in tally/report.py',
      'Reproduce the month-end bug with a failing regression test',
      'Run the full test suite and the January report',
      'Switch money amounts from float to Decimal',
    ]);
    for (const todo of todos) {
      expect(todo.status).toBe('completed');
      expect(todo.evidence.length).toBeGreaterThan(1);
    }
  });

  it('records the test run with its counts, and the failure the green re-run fixed', () => {
    const [test] = nodes(graph, 'TEST');
    expect(test).toMatchObject({ label: 'python3 -m unittest discover -s tests -v', status: 'completed' });
    expect(test.detail).toMatch(/^\d+ passed$/);
    const failure = nodes(graph, 'ERROR').find((e) => e.label.includes('test_includes_last_day_of_month'))!;
    expect(failure.status).toBe('completed');
    expect(edgesBetween(graph, test, failure)).toContain('FIXES');
    // The edit between the failure and the green run is what fixed it.
    const report = nodes(graph, 'FILE').find((f) => f.label === 'tally/report.py')!;
    expect(edgesBetween(graph, report, failure)).toContain('FIXES');
  });

  it('closes the MultiEdit error once the same file is edited', () => {
    const multiEdit = nodes(graph, 'ERROR').find((e) => e.label.startsWith('MultiEdit tally/model.py'))!;
    expect(multiEdit.label).toContain('No such tool available: MultiEdit');
    expect(multiEdit.status).toBe('completed');
  });

  it('keeps decisions with the road not taken and the why', () => {
    const decision = nodes(graph, 'DECISION').find((d) => d.label === 'fix the comparison to <=')!;
    expect(decision.detail).toContain('not changing month_bounds()');
    expect(decision.detail).toContain('month_bounds() is public');
    const decimal = nodes(graph, 'DECISION').find((d) => d.label === 'defaultdict(Decimal)')!;
    expect(decimal.detail).toContain('not converting at the end');
  });

  it('lets "switch from float to Decimal" supersede float', () => {
    const [decimal, float] = ['Decimal', 'float'].map((l) => nodes(graph, 'DECISION').find((d) => d.label === l)!);
    expect(edgesBetween(graph, decimal, float)).toEqual(['SUPERSEDES']);
  });

  it('records the commit as done work', () => {
    expect(nodes(graph, 'TASK').find((t) => t.label.startsWith('Committed: Include last day of month in totals'))?.status).toBe('completed');
  });
});

describe('subagent.jsonl (Agent and the legacy Task name)', () => {
  it('has an AGENT node per subagent, completed, with the kind and the report', async () => {
    const agents = nodes(await graphOf(join(SAMPLE_DIR, 'subagent.jsonl')), 'AGENT');
    expect(agents.map((a) => a.label).sort()).toEqual(['Audit environment variable usage', 'Check test coverage of env vars']);
    for (const agent of agents) expect(agent.status).toBe('completed');
    expect(agents.find((a) => a.label.startsWith('Audit'))?.detail).toMatch(/^general-purpose: .+/);
    expect(agents.find((a) => a.label.startsWith('Check'))?.detail).toMatch(/^Explore: .+test\/config\.test\.js/);
  });
});

describe('resumed.jsonl (four invocations, a failing node --test run)', () => {
  it('turns each instruction into a task, done when the reply is', async () => {
    const graph = await graphOf(join(SAMPLE_DIR, 'resumed.jsonl'));
    const tasks = nodes(graph, 'TASK');
    expect(tasks.find((t) => t.label === 'Update the README with a short usage section for compare()')?.status).toBe('completed');
    // "... Right now compare() says they're equal. Can you fix that?": the problem is the first sentence.
    expect(tasks.find((t) => t.label.startsWith('fix Prerelease versions must sort before the release'))?.status).toBe('completed');
    expect(nodes(graph, 'TEST')[0]).toMatchObject({ label: 'node --test test/', status: 'completed', detail: '5 passed' });
    expect(nodes(graph, 'ERROR').every((e) => e.status === 'completed')).toBe(true);
  });
});

describe.skipIf(!HAS_CORPUS)('corpus', () => {
  it('follows TaskCreate/TaskUpdate by task id to completed', async () => {
    const graph = await graphOf(corpusFile('entire-26dcd5518f-v2.1.29-image.jsonl'));
    const tasks = nodes(graph, 'TASK').filter((t) => t.confidence === 1);
    expect(tasks.map((t) => t.label)).toEqual(
      expect.arrayContaining(['Add EndedAt field to session State struct', 'Run verification (fmt, lint, tests)', 'Update Gemini handleGeminiSessionEnd and fix logging']),
    );
    for (const task of tasks.filter((t) => /^(?:Add|Update|Run)/.test(t.label))) expect(task.status).toBe('completed');
  });

  it("reads the user's answer to AskUserQuestion as their decision", async () => {
    const graph = await graphOf(corpusFile('spotter-subagent-v2.1.38-plan.jsonl'));
    const decisions = nodes(graph, 'DECISION');
    // Labelled with the question's header and the option's description: "No rig" alone says little.
    expect(decisions.find((d) => d.label.startsWith('Rig prefix: No rig'))?.detail).toContain('Which rig do these beads belong to');
    // What the picked option skips is what it was chosen without; the options it beat follow "over".
    expect(decisions.map((d) => d.label)).toContain('Tools: Credo + Dialyxir + mix_audit (not Sobelow (Phoenix security scanner)) over All four or Custom selection');
  });

  it("reads the failed checks of a subagent stored inline (isSidechain, 1.0.x) as the session's errors", async () => {
    const graph = await graphOf(corpusFile('ccviewer-fe5e1c67-v1.0.98-long.jsonl'));
    const errors = nodes(graph, 'ERROR').map((e) => e.label);
    // Next.js prints the thrown error in brackets: "[TypeError: generate is not a function]".
    expect(errors).toContain('npm run build: TypeError: generate is not a function');
    expect(errors.some((e) => e.includes("Cannot find module '@testing-library/react'"))).toBe(true);
  });

  it("settles a summary's error whose fix is in the lines under it, and keeps sentence pieces out of the errors", async () => {
    const graph = await graphOf(corpusFile('happy-400429ba-v1.0.51-3MB.jsonl'));
    const errors = nodes(graph, 'ERROR');
    expect(errors.find((e) => e.label.startsWith('WebSocket 502 Error'))?.status).toBe('completed');
    expect(errors.map((e) => e.label)).not.toContain('with the decryption logic');
  });
});

describe('choices written in plans and task descriptions', () => {
  it('reads a sentence under a choice heading of a plan as a choice, as its list items are', () => {
    const plan = parsePlan(
      '# Plan: Quality tools\n\n## Solution\nAdd three tools:\n- **Credo** for style\n\nInstall via `mix igniter.install`, generate Credo config, and add a unified `mix quality` alias.\n\n## Task 1: Install tools\n',
    );
    expect(plan.choices).toEqual(['Credo for style', 'Install via mix igniter.install, generate Credo config, and add a unified mix quality alias']);
    expect(plan.steps).toEqual(['Install tools']);
  });

  it('reads the sentences of a TaskCreate description that say how and why, and no others', () => {
    expect(taskReasons('Add `EndedAt *time.Time` to the State struct. Use pointer so nil means active/unclean exit.')).toEqual(['Use pointer so nil means active/unclean exit']);
    expect(taskReasons('Run the full test suite and fix what fails. So far, what remains?')).toEqual([]);
  });
});
