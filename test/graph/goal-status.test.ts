// The opening request as a piece of work: done when the reply to it carried it out, shown as done
// and counted among done tasks; left open when the reply only looked, planned or left work under way.

import { describe, expect, it } from 'vitest';
import { buildGraph } from '../../src/graph/build-graph.js';
import { buildResume } from '../../src/graph/resume-block.js';
import { goalIsTask } from '../../src/graph/resume-items.js';
import type { GraphNode, SessionGraph } from '../../src/graph/model.js';
import { countTokens } from '../../src/tokens/counter.js';
import { scriptSession, type ScriptStep } from './script-session.js';

const GOAL: ScriptStep = { user: 'Build an invoice service' };

function goalOf(steps: ScriptStep[]) {
  const graph = buildGraph(scriptSession(steps));
  return { node: graph.nodes.find((n) => n.type === 'GOAL')!, block: buildResume(graph, { tier: 'standard' }) };
}

describe('the opening request', () => {
  it('is a done task when the first reply reports the work done', () => {
    const { node, block } = goalOf([GOAL, { assistant: 'Completed: invoice model and PDF export.' }]);
    expect(node.status).toBe('completed');
    expect(block.text).toMatch(/^Goal✓ Build invoice service$/m);
    expect(block.sections.done[0]).toBe('Build invoice service');
    // Marked done for no more tokens than an open goal costs.
    expect(countTokens(block.text.split('\n')[0])).toBe(countTokens('Goal: Build invoice service'));
  });

  it('is done when the first reply lists the files it wrote, not while it is still creating them', () => {
    expect(goalOf([GOAL, { assistant: 'Decided: FastAPI. Files: api/app.py' }]).node.status).toBe('completed');
    expect(goalOf([GOAL, { assistant: 'Decided: FastAPI. Creating: api/app.py, api/models/' }]).node.status).toBeNull();
  });

  it('stays open when the first reply only investigated, or left work in progress', () => {
    for (const reply of ['Checking: error logs. Found: connection pool exhausted 100/100.', 'Completed: invoice model. Working on: PDF export.']) {
      const { node, block } = goalOf([{ user: 'Production is down, invoices fail' }, { assistant: reply }]);
      expect(node.status, reply).toBeNull();
      expect(block.text, reply).toMatch(/^Goal: /);
      expect(block.sections.done, reply).not.toContain(block.sections.goal[0]);
    }
  });

  it('stays open when a command of the first turn failed and was not fixed', () => {
    const { node } = goalOf([
      GOAL,
      { tool: 'Write', input: { file_path: '/home/me/app/src/invoice.ts', content: 'x' } },
      { tool: 'Bash', input: { command: 'npm test' }, result: 'Exit code 1\nFAIL src/invoice.test.ts', isError: true },
    ]);
    expect(node.status).toBeNull();
  });

  it('is not marked done by later turns finishing other requests', () => {
    const { node } = goalOf([GOAL, { assistant: 'Checking: the repo layout.' }, { user: 'Add retries' }, { assistant: 'Completed: retries.' }]);
    expect(node.status).toBeNull();
  });
  it("counts among done tasks beside a reply's one-line report of it: the report is no record of the work item by item", () => {
    const graph = buildGraph(
      scriptSession([
        { user: 'can you update CLAUDE.md to reflect the new session storage?' },
        { tool: 'Edit', input: { file_path: '/home/me/app/CLAUDE.md', old_string: 'a', new_string: 'b' }, result: 'The file CLAUDE.md has been updated.' },
        { assistant: 'Done. Updated CLAUDE.md with the new session storage layout.' },
      ]),
    );
    const block = buildResume(graph, { tier: 'standard' });
    expect(block.text).toMatch(/^Goal✓ /);
    expect(block.sections.done[0]).toMatch(/update CLAUDE\.md to reflect/i);
  });
  it('is no done task when it only reported a problem, settled or not', () => {
    const goal = (label: string) => ({ id: 'g', type: 'GOAL', label, status: 'completed', confidence: 1, importance: 1, firstTurn: 0, lastTurn: 1 }) as unknown as GraphNode;
    const isTask = (label: string) => goalIsTask({ nodes: [goal(label)], edges: [] } as unknown as SessionGraph, goal(label));
    expect(isTask('I tried to make a release and did run into an issue: sign & notarize timed out')).toBe(false);
    expect(isTask("I've noticed a few hundred millis delay before the shell prompt returns")).toBe(false);
    expect(isTask('Fix the release: notarize is broken')).toBe(true);
    expect(isTask('Build an invoice service')).toBe(true);
  });
});
