// The rule table: every rule of the graph runs its own examples. A positive example must make a
// node credited to the rule, and reach the rule when the whole table runs (no earlier final rule
// may take it); a negative one must make nothing through the rule.

import { describe, expect, it } from 'vitest';
import { RULES, newState, runRules } from '../../src/graph/rules/index.js';
import { openSession } from '../../src/session/session.js';
import { buildGraph } from '../../src/graph/build-graph.js';
import { HAS_CORPUS, corpusFiles, sampleFiles } from '../helpers/corpus.js';

describe('the graph rule table', () => {
  it('gives every rule a unique id, a why, what it matches and makes, and a positive and a negative example', () => {
    const ids = RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of RULES) {
      expect(rule.id, rule.id).toMatch(/^[a-z]+\.[a-z-]+$/);
      expect(rule.why.length, rule.id).toBeGreaterThan(10);
      expect(rule.matches.length, rule.id).toBeGreaterThan(3);
      expect(rule.makes.length, rule.id).toBeGreaterThan(3);
      expect(rule.examples.yes.length, rule.id).toBeGreaterThan(0);
      expect(rule.examples.no.length, rule.id).toBeGreaterThan(0);
      for (const example of [...rule.examples.yes, ...rule.examples.no]) expect(example.on, rule.id).toBe(rule.on);
    }
  });

  for (const rule of RULES) {
    describe(rule.id, () => {
      rule.examples.yes.forEach((example, i) => {
        it(`matches its positive example ${i + 1} and makes a node credited to it`, () => {
          expect(rule.match(example)).toBe(true);
          const state = newState();
          runRules([rule], example, state);
          const made = state.builder.finish(undefined, 1).nodes.filter((n) => n.rules?.includes(rule.id));
          expect(made.length).toBeGreaterThan(0);
        });
        it(`is reached by its positive example ${i + 1} when the whole table runs (no earlier rule shadows it)`, () => {
          const fired = runRules(RULES, example, newState());
          expect(fired).toContain(rule.id);
        });
      });
      rule.examples.no.forEach((example, i) => {
        it(`makes nothing from its negative example ${i + 1}`, () => {
          const state = newState();
          runRules([rule], example, state);
          const made = state.builder.finish(undefined, 1).nodes.filter((n) => n.rules?.includes(rule.id));
          expect(made).toEqual([]);
        });
      });
    });
  }
});

describe('every node names the rule that made it', () => {
  it.skipIf(!HAS_CORPUS)(
    'on every corpus log and sample session',
    async () => {
      const known = new Set([...RULES.map((r) => r.id), 'session.project', 'prompt.turn-status']);
      for (const file of [...corpusFiles(), ...sampleFiles()]) {
        const graph = buildGraph(await openSession(file));
        for (const node of graph.nodes) {
          expect(node.rules?.length, `${file}: ${node.type} ${node.label}`).toBeGreaterThan(0);
          for (const id of node.rules!) expect(known.has(id), `${file}: unknown rule ${id}`).toBe(true);
        }
      }
    },
    120_000,
  );
});

describe('agent.report on 2.1.332 hand-backs', () => {
  it('reads the report, not the tools-used wrapper around it', () => {
    const rule = RULES.find((r) => r.id === 'agent.report')!;
    const state = newState();
    runRules([rule], rule.examples.yes[1], state);
    const agent = state.builder.finish(undefined, 1).nodes.find((n) => n.type === 'AGENT')!;
    expect(agent.detail).toContain('The loader lives in src/config/load.ts');
    expect(agent.detail).not.toContain('tools-used-before-summary');
  });
});

describe('task.task-tools', () => {
  it('follows TaskUpdate: a status moves on, a subject renames, "deleted" removes', () => {
    const rule = RULES.find((r) => r.id === 'task.task-tools')!;
    const state = newState();
    const step = (name: string, input: Record<string, unknown>, result: string) => ({
      on: 'tool' as const,
      step: { kind: 'tool' as const, name, input, result, isError: false, answered: true, uuid: 'u', cwd: '/repo' },
    });
    runRules([rule], step('TaskCreate', { subject: 'Add alias' }, 'Task #1 created successfully: Add alias'), state);
    runRules([rule], step('TaskCreate', { subject: 'Drop old config' }, 'Task #2 created successfully: Drop old config'), state);
    runRules([rule], step('TaskUpdate', { taskId: '1', status: 'completed', subject: 'Add mix quality alias' }, 'Updated task #1'), state);
    runRules([rule], step('TaskUpdate', { taskId: '2', status: 'deleted' }, 'Updated task #2'), state);
    const tasks = state.builder.finish(undefined, 1).nodes.filter((n) => n.type === 'TASK');
    expect(tasks.map((t) => [t.label, t.status])).toEqual([['Add mix quality alias', 'completed']]);
  });
});
