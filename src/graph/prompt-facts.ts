// The user's side of a turn: the first real prompt is the GOAL; later prompts become tasks
// (instructions, terse topics, problem reports as "fix: ..."), choices become decisions. At the
// end of the turn the reply decides each task's status.

import type { Prompt, Turn } from './session-turns.js';
import { classifyClause, promptClauses } from './prompt-kinds.js';
import { answerProposals, suggestions } from './proposals.js';
import { decisionInPrompt, isQuestion, splitChoices } from './decisions.js';
import { clipWords, normaliseLabel, sentences, wordCount, wordOverlap } from './labels.js';
import { closableError, fixLabel, textFacts } from './text-facts.js';
import { workDone, type ExtractState } from './extract-state.js';
import { resolveGoal } from './goal-status.js';

const GOAL_WORDS = 24;
const TASK_WORDS = 12;

/** The goal as a label: the prompt's first sentence (with the heading a "plan:" opener introduces). */
export function goalLabel(text: string): string {
  const all = sentences(text);
  let first = all[0] ?? text;
  if (/:\s*$/.test(first) && all[1]) first = `${first} ${all[1]}`;
  // "B) I'd like to add ...": the letter of the option the prompt answers with is not the goal.
  first = first.replace(/^[A-Ha-h]\)\s+(?=\S)/, '');
  return normaliseLabel(clipWords(first, GOAL_WORDS));
}

export function promptFacts(prompt: Prompt, state: ExtractState, first: boolean): void {
  const { builder, turn } = state;
  const base = { turn, uuid: prompt.uuid };
  const clauses = promptClauses(prompt.text);
  answerProposals(clauses, state);
  if (first) {
    state.goal = builder.mention('GOAL', goalLabel(prompt.text), { ...base, confidence: 1 });
    builder.link(state.goal, state.project, 'PART_OF');
  }
  clauses.forEach((clause, i) => {
    if (first && i === 0) {
      technologyChoices(clause.text, prompt.uuid, state, clause.kind === 'problem');
      // A session that opens with a bug report: the bug is an open error until a fix closes it.
      if (clause.kind === 'problem') {
        const error = builder.mention('ERROR', clause.text, { ...base, confidence: 0.6, status: 'failed' });
        if (error) state.openErrors.push({ node: error, changedSince: [] });
        builder.link(error, state.goal, 'BLOCKS');
      }
      return;
    }
    const task = (label: string, confidence: number) => {
      const node = builder.mention('TASK', normaliseLabel(clipWords(label, TASK_WORDS)), { ...base, confidence, status: 'pending' });
      if (node && !state.turnTasks.includes(node)) state.turnTasks.push(node);
      builder.link(node, state.goal, 'PART_OF');
      return node;
    };
    // "Email notifications can wait until next sprint": work the user puts off is pending, not asked for now.
    const deferred = /^(?:(?:thanks|ok(?:ay)?|great)[.!,]?\s+)?(.{3,80}?)\s+(?:can wait|can be done later|is for later|(?:is|are) not urgent)\b/i.exec(clause.text);
    if (deferred && !isQuestion(clause.text)) {
      builder.link(builder.mention('TASK', normaliseLabel(clipWords(deferred[1], TASK_WORDS)), { ...base, confidence: 0.7, status: 'pending' }), state.goal, 'PART_OF');
      return;
    }
    switch (clause.kind) {
      case 'instruction': {
        // "Can you import them?": the object is what the sentence before was about.
        const before = clauses.slice(0, i).find((c) => c.kind !== 'ack');
        if (/^\S+\s+(?:it|that|this|them|those|these)(?:\s+(?:too|as well|please|now))?$/i.test(clause.text) && before) {
          task(`${clause.text.split(/\s+/)[0].toLowerCase()} ${subjectOf(before.text)}`, 0.75);
        } else task(clause.text, 0.8);
        technologyChoices(clause.text, prompt.uuid, state);
        break;
      }
      case 'ask':
        state.asks.push(clause.text);
        break;
      case 'choice':
        for (const item of decisionInPrompt(clause.text)?.items ?? []) {
          const detail = [item.why, item.rejected.length ? `not ${item.rejected.join(', ')}` : ''].filter(Boolean).join('; ') || undefined;
          builder.mention('DECISION', item.label, { ...base, confidence: 0.85, detail });
        }
        break;
      case 'problem': {
        const fix = task(fixLabel(clause.text), 0.7);
        const error = builder.mention('ERROR', clause.text, { ...base, confidence: 0.6, status: 'failed' });
        if (error && !state.openErrors.some((o) => o.node === error)) state.openErrors.push({ node: error, changedSince: [] });
        builder.link(fix, error, 'FIXES');
        break;
      }
      case 'topic':
        task(clause.text, 0.6);
        break;
      case 'done-report': {
        // "Cutover done", "Fixed the leak — stable now": what was in progress is finished.
        for (const t of builder.all('TASK')) if (t.status === 'in_progress' && t.lastTurn < turn) builder.advance(t, 'completed', turn, prompt.uuid);
        const open = /\b(?:fixed|resolved)\b/i.test(clause.text) ? closableError(state, clause.text) : undefined;
        if (open) {
          const fix = builder.mention('TASK', fixLabel(open.node.label), { ...base, confidence: 0.7, status: 'completed' });
          builder.advance(open.node, 'completed', turn, prompt.uuid);
          builder.link(fix, open.node, 'FIXES');
          builder.link(fix, state.goal, 'PART_OF');
          state.openErrors.splice(state.openErrors.indexOf(open), 1);
        }
        break;
      }
    }
  });
  textFacts(prompt.text, { role: 'user', uuid: prompt.uuid, final: false }, state);
  suggestions(prompt.text, prompt.uuid, state);
}

/** "Some apps log JSON, some plain text": one short sentence about the work, not a conversational turn. */
function plainRemark(text: string): boolean {
  const all = sentences(text).filter((s) => classifyClause(s).kind !== 'ack');
  return all.length === 1 && wordCount(all[0]) <= 12 && !/^(?:i|we|you|you're|it|it's|this|that|yes|yeah|no|but|and|so|hmm|well|the idea|let'?s|lets|actually|also|ok(?:ay)?)\b/i.test(all[0]);
}

/** "The German translations are in a spreadsheet": what a clause is about, the words before its verb. */
function subjectOf(clause: string): string {
  // A requirement ("X must sort before Y") is kept whole: its verb is the point.
  const m = /^(.{3,60}?)\s+(?:is|are|was|were|lives?|sits?|comes?|came|looks?|seems?)\s+(?:in|at|on|from|under|inside|stored|kept|saved|listed)\b/i.exec(clause);
  return m && !/^(?:i|we|you|it|this|that|they|there)$/i.test(m[1]) ? m[1] : clause;
}

/** "Build X with JWT and PostgreSQL": named technologies the user asks for are choices made. */
function technologyChoices(clause: string, uuid: string, state: ExtractState, problem = false): void {
  // "Write a blog post on RAG — Substack": a request that ends on a name set off by a dash names
  // where or with what (a problem report's "— Safari" names where it fails, not a choice).
  const apposed = problem ? null : /\s[—–-]\s+([A-Z][\w.+#-]*(?:\s+[A-Z0-9][\w.+#-]*){0,2})[.!]?$/.exec(clause);
  if (apposed) state.builder.mention('DECISION', apposed[1], { turn: state.turn, uuid, confidence: 0.8 });
  const m = /\b(?:with|using|via)\s+(.+)$/i.exec(clause);
  if (!m) return;
  for (const item of splitChoices(m[1])) {
    if (!/^(?:[A-Z0-9]|[a-z]+[A-Z.])/.test(item.label) || item.label.split(/\s+/).length > 3) continue;
    // Named by the user in their request: as explicit as a decision gets.
    const decision = state.builder.mention('DECISION', item.label, { turn: state.turn, uuid, confidence: 0.8, detail: item.why });
    state.builder.link(decision, state.turnTasks[0] ?? state.goal, 'RELATED_TO');
  }
}

/** After the reply: each task the user asked for this turn is done, under way, or untouched. */
export function resolveTurn(turn: Turn, state: ExtractState, first: boolean): void {
  const { builder, signals } = state;
  if (first) resolveGoal(turn, state);
  const replied = turn.steps.length > 0;
  const clauses = turn.prompt && !first ? promptClauses(turn.prompt.text).filter((c) => c.kind !== 'ack') : [];
  const worked = workDone(state);
  const asked = (label: string, confidence: number, status: 'completed' | 'in_progress') => {
    const task = builder.mention('TASK', normaliseLabel(clipWords(label, TASK_WORDS)), { turn: turn.index, uuid: turn.prompt?.uuid, confidence, status });
    builder.link(task, state.goal, 'PART_OF');
    for (const done of builder.all('TASK')) if (done !== task && done.firstTurn === turn.index && done.status === 'completed') builder.link(done, task, 'PART_OF');
  };
  // "Can we persist the cart?", "Retention?": work asked for as a question is a task once the reply does it.
  if (worked || signals.inProgress.length > 0) {
    for (const ask of state.asks) asked(ask, 0.7, signals.inProgress.length > 0 && !signals.completed ? 'in_progress' : 'completed');
  }
  const opening = clauses[0];
  if (turn.prompt && opening && state.turnTasks.length === 0 && state.asks.length === 0 && !isQuestion(turn.prompt.text)) {
    // "Docker build 12 minutes" answered with "Fixed: ...": the prompt reported a problem.
    if (signals.fixed) asked(fixLabel(opening.text), 0.65, 'completed');
    // "Some apps log JSON, some plain text" answered with work done: the remark was the request.
    else if (signals.completed && opening.kind === 'statement' && plainRemark(turn.prompt.text)) asked(opening.text, 0.6, 'completed');
  }
  for (const task of state.turnTasks) {
    if (!replied) continue;
    // "Not started. Pending: country breakdown": the reply left the asked work for later.
    const deferred = signals.notStarted.some((t) => t === task || wordOverlap(t.label, task.label) >= 0.5);
    if (deferred || (signals.notStartedAtAll && !signals.completed && !signals.fixed)) continue;
    const named = signals.inProgress.some((t) => t !== task && wordOverlap(t.label, task.label) >= 0.5);
    const stillOpen = state.openErrors.some((o) => o.node.lastTurn === turn.index && (o.command !== undefined || o.file !== undefined));
    let status: 'completed' | 'in_progress';
    if (named || (signals.inProgress.length > 0 && !signals.completed)) status = 'in_progress';
    else if (signals.completed || signals.fixed) status = 'completed';
    else if (stillOpen || signals.unanswered > 0 || signals.openTodos > 0) status = 'in_progress';
    else status = 'completed';
    builder.advance(task, status, turn.index);
    if (status === 'completed') {
      for (const edge of builder.edgesFrom(task, 'FIXES')) {
        builder.advance(edge, 'completed', turn.index);
        const open = state.openErrors.find((o) => o.node === edge);
        if (open) state.openErrors.splice(state.openErrors.indexOf(open), 1);
      }
    }
  }
}
