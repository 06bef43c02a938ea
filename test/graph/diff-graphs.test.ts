// Graph diffs between two states of one session: what was added, removed, and whose status moved.

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildGraph } from '../../src/graph/build-graph.js';
import { diffGraphs, graphDiffLines } from '../../src/graph/diff-graphs.js';
import { SAMPLE_DIR } from '../helpers/corpus.js';
import { scriptRecords, sessionOfRecords, type ScriptStep } from './script-session.js';

const STEPS: ScriptStep[] = [
  { user: 'Build a CSV to Markdown converter' },
  { assistant: 'Decided: Python 3.12 with the csv module.' },
  { user: 'Add a --delimiter option' },
  { assistant: 'Working on: the --delimiter option.' },
  { tool: 'Edit', input: { file_path: '/home/me/app/csv2md.py', old_string: 'a', new_string: 'b' }, result: 'The file has been updated successfully.' },
  { assistant: 'Completed: --delimiter option in csv2md.py' },
];

describe('diffGraphs', () => {
  it('is empty for the same graph', () => {
    const graph = buildGraph(sessionOfRecords(scriptRecords(STEPS)));
    expect(diffGraphs(graph, graph)).toMatchObject({ added: [], removed: [], statusChanged: [], same: true });
  });

  it('shows what a later snapshot added and whose status moved', () => {
    const records = scriptRecords(STEPS);
    const before = buildGraph(sessionOfRecords(records.slice(0, 4)));
    const after = buildGraph(sessionOfRecords(records));
    const diff = diffGraphs(before, after);
    expect(diff.same).toBe(false);
    expect(diff.added.map((n) => `${n.type} ${n.label}`)).toEqual(expect.arrayContaining(['FILE csv2md.py']));
    expect(diff.statusChanged).toContainEqual(expect.objectContaining({ type: 'TASK', label: 'Add a --delimiter option', from: 'in_progress', to: 'completed' }));
    expect(diff.removed).toEqual([]);
    const lines = graphDiffLines(diff);
    expect(lines).toContain('+ FILE csv2md.py');
    expect(lines).toContain('~ TASK Add a --delimiter option: in_progress -> completed');
  });

  it('shows what an earlier snapshot had that a later one lost', () => {
    const records = scriptRecords(STEPS);
    const diff = diffGraphs(buildGraph(sessionOfRecords(records)), buildGraph(sessionOfRecords(records.slice(0, 2))));
    expect(diff.removed.map((n) => n.type)).toEqual(expect.arrayContaining(['TASK', 'FILE']));
  });

  it('pairs the nodes of two snapshots of a real session by their ids', () => {
    const lines = readFileSync(join(SAMPLE_DIR, 'resumed.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const cut = lines.findIndex((r) => r.type === 'user' && typeof r.message?.content === 'string' && r.message.content.startsWith('Update the README'));
    const diff = diffGraphs(buildGraph(sessionOfRecords(lines.slice(0, cut + 1))), buildGraph(sessionOfRecords(lines)));
    expect(diff.statusChanged).toContainEqual(expect.objectContaining({ label: 'Update the README with a short usage section for compare()', from: 'pending', to: 'completed' }));
    // README.md was named before it was edited: its status moves, it is not new.
    expect(diff.statusChanged).toContainEqual(expect.objectContaining({ type: 'FILE', label: 'README.md', from: null, to: 'modified' }));
    expect(diff.removed).toEqual([]);
  });
});
