// The decision rules of src/graph/rules/decision-rules.ts on what real sessions write, and the
// resume block's fillers: a reply's reasoned choice takes only the room the rest leaves.

import { describe, expect, it } from 'vitest';
import { keptOrSet, partialCommit, planChoices, reasonedChoices, statusModified } from '../../src/graph/rules/decision-rules.js';
import { buildResume } from '../../src/graph/resume-block.js';
import { labelScore } from '../../src/graph/validate.js';
import type { GraphNode, SessionGraph } from '../../src/graph/model.js';

describe('reasoned choices', () => {
  it("names the choice with its reason, in the sentence's own link", () => {
    expect(reasonedChoices("I need to add the untracked files to `.gitignore` - these are generated files that shouldn't be tracked.")).toEqual([
      "add the untracked files to .gitignore since generated files that shouldn't be tracked",
    ]);
    expect(reasonedChoices('I need to add a `testAgent` constant in `logger_test.go` following the same pattern.')).toEqual(['add a testAgent constant in logger_test.go following the same pattern']);
    expect(reasonedChoices("`setPrompts` is still used elsewhere, so I'll leave it.")).toEqual(['setPrompts is still used elsewhere, so leave it']);
    expect(reasonedChoices('I need to delete the Python source files (not the plugin scripts).')).toEqual(['delete the Python source files, not the plugin scripts']);
  });

  it('reads no choice from looking around, a hedge, a question or doing what was asked', () => {
    for (const text of [
      'Let me check the config since it changed.',
      'I need to read the file because it might have changed.',
      "Since the hook won't let me commit, I have two options:",
      'Should I add it to .gitignore since it is generated?',
      "I'll note this and move on since you suggested.",
      'Let me rebuild the CSS so the changes take effect.',
    ])
      expect(reasonedChoices(text), text).toEqual([]);
  });
});

describe('plans', () => {
  it('reads the change a plan settles, its bold-named properties and the steps that name what they replace', () => {
    const plan = [
      'Implement the following plan:',
      '',
      '# Plan: Block large repos',
      '',
      '## Change',
      '',
      '**File:** `README.md` (line ~108)',
      '',
      'Write all logs to a single fixed file: `.entire/logs/entire.log`. The session attribute stays.',
      '',
      '## Changes',
      '',
      '- **Fail-safe**: If cloc is unavailable, evaluation proceeds.',
      '- **Files**: `engine.ts`',
      '- Use `border-b` between rows instead of a full border per row',
      '- Update the jq examples to use `entire.log` instead of `*.log`',
    ].join('\n');
    expect(planChoices(plan)).toEqual([
      'Write all logs to a single fixed file: .entire/logs/entire.log',
      'Fail-safe: If cloc is unavailable, evaluation proceeds',
      'Use border-b between rows instead of a full border per row',
    ]);
  });
});

describe('kept as it is, or set to a value', () => {
  it('says what was kept and why, and what a value does', () => {
    expect(keptOrSet('The `space-y-1` gap between the section header and the table is fine — it provides a small gap.')).toEqual([
      'Keep space-y-1 gap between the section header and the table: provides a small gap',
    ]);
    expect(keptOrSet('Added `retry: 1` which will retry notarization once on failure.')).toEqual(['retry: 1 retry notarization once on failure']);
    expect(keptOrSet('The build is fine now.')).toEqual([]);
  });
});

describe('commit scope', () => {
  it("reads git status in git's own words and as a wrapper lists it", () => {
    expect(statusModified('Changes not staged for commit:\n\tmodified:   src/a.ts\n\tdeleted:    b.md\n')).toEqual({ paths: ['src/a.ts', 'b.md'], more: 0 });
    expect(statusModified('📌 main\n📝 Modified: 11 files\n   src/a.ts\n   src/b.ts\n   ... +9 more\n❓ Untracked: 5 files\n   .claude/\n')).toEqual({
      paths: ['src/a.ts', 'src/b.ts'],
      more: 9,
    });
  });

  it('names a commit that leaves out modified files the session never touched', () => {
    const status = { paths: ['frontend/src/EmptyState.tsx', 'src/shared/constants.ts'], more: 0 };
    const touched = (p: string) => p.endsWith('EmptyState.tsx');
    expect(partialCommit('git add frontend/src/EmptyState.tsx && git commit -m "x"', status, touched)).toBe('Commit only EmptyState.tsx, not unrelated changes (constants.ts)');
    // Staging everything, or leaving out only the session's own files, chooses nothing.
    expect(partialCommit('git add -A && git commit -m "x"', status, touched)).toBeUndefined();
    expect(partialCommit('git add src/shared/constants.ts && git commit -m "x"', status, touched)).toBeUndefined();
    expect(partialCommit('git add frontend/src/EmptyState.tsx', status, touched)).toBeUndefined();
  });
});

describe("the block places a reply's reasoned choices last", () => {
  const node = (id: string, type: GraphNode['type'], label: string, rules: string[], confidence = 0.8, status: GraphNode['status'] = null): GraphNode => ({
    id,
    type,
    label,
    status,
    importance: 0.5,
    confidence,
    firstTurn: 1,
    lastTurn: 1,
    evidence: [],
    rules,
  });
  const graph = (extra: GraphNode[]): SessionGraph => ({
    sessionId: 's',
    turns: 1,
    lastAsk: null,
    nodes: [
      node('f', 'FILE', 'src/a.ts', ['file.changed'], 1, 'modified'),
      node('t', 'TASK', 'Added the retry to the upload client', ['task.todowrite'], 1, 'completed'),
      node('t2', 'TASK', 'Moved the upload settings into config', ['task.todowrite'], 1, 'completed'),
      node('t3', 'TASK', 'Wrote tests for the upload client', ['task.todowrite'], 1, 'completed'),
      node('e', 'ERROR', 'upload test timed out after 5s', ['bash.command'], 1, 'completed'),
      ...extra,
    ],
    edges: [],
  });

  it('shows it when there is room, and never in place of another item', () => {
    const reasoned = node('d', 'DECISION', 'retry once since the queue often clears', ['decision.reasoned-choice']);
    const roomy = buildResume(graph([reasoned]), { budget: 300 });
    expect(roomy.sections.decisions).toEqual(['retry once since queue often clears']);
    // At 32 tokens a choice stated as such takes the Fixed line's place; the reasoned one does not.
    const stated = buildResume(graph([{ ...reasoned, rules: ['decision.stated-choice'] }]), { budget: 32 });
    expect(stated.sections.decisions.length).toBe(1);
    expect(stated.sections.fixed).toEqual([]);
    const without = buildResume(graph([]), { budget: 32 });
    const tight = buildResume(graph([reasoned]), { budget: 32 });
    expect(without.sections.fixed.length).toBe(1);
    expect(tight.sections).toEqual(without.sections);
  });
});

describe('the validator on choices', () => {
  const draft = (label: string) => ({ key: label, type: 'DECISION' as const, label, status: null, confidence: 0.85, firstTurn: 1, lastTurn: 1, mentions: [1], evidence: [], seq: 0, rules: [] });
  it('rejects the tail of a sentence or a suggestion, keeps a choice', () => {
    for (const tail of [
      "but we don't need to commit",
      'when InitializeSession fails and no session state exists, the agent type from SaveContext',
      'How about instead of "1 other session" - "These other',
    ]) {
      expect(labelScore(draft(tail)), tail).toBeLessThan(0.45);
    }
    expect(labelScore(draft('skip validation when the session ID is empty'))).toBeGreaterThanOrEqual(0.45);
  });
});
