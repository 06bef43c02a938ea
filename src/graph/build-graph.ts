// buildGraph: a session in, its knowledge graph out. Turn by turn: the prompt, then the tool
// calls (grounded facts first), then the prose, then the turn's task statuses; the validator
// last. Pure: the same session always gives the same graph, byte for byte.

import type { Session } from '../session/session.js';
import { GraphBuilder, type DraftNode } from './graph-builder.js';
import type { SessionGraph } from './model.js';
import { emptySignals, type ExtractState } from './extract-state.js';
import { sessionTurns, type Turn } from './session-turns.js';
import { resolveTurn } from './prompt-facts.js';
import { RULES, runRules } from './rules/index.js';
import { resolveSummaryPaths } from './rules/summary-rules.js';
import { CHANGE_TOOLS } from './tool-facts.js';
import { validateGraph } from './validate.js';
import { clipWords, sentences } from './labels.js';
import { classifyClause } from './prompt-kinds.js';

export function buildGraph(session: Session): SessionGraph {
  return graphOfTurns(sessionTurns(session), session.facts.sessionId, session.facts.cwd, session.facts.gitBranch);
}

export function graphOfTurns(turns: Turn[], sessionId?: string, cwd?: string, gitBranch?: string): SessionGraph {
  const builder = new GraphBuilder();
  const state: ExtractState = { builder, turn: 0, cwd, turnTasks: [], tasksById: new Map(), openErrors: [], signals: emptySignals(), proposals: [], asks: [] };
  state.toolSession = turns.some((t) => t.steps.some((s) => s.kind === 'tool' && CHANGE_TOOLS.has(s.name)));
  if (cwd) state.project = builder.mention('PROJECT', cwd, { rule: 'session.project', turn: 0, confidence: 1, detail: gitBranch ? `branch ${gitBranch}` : undefined });
  let prompted = false;
  let lastAsk: string | null = null;
  // The last summary speaks for the end of the session only when no file changed after it.
  const lastAt = turns.findLastIndex((t) => (t.summaries ?? []).length > 0);
  const changedAfter = lastAt >= 0 && turns.slice(lastAt).some((t) => t.steps.some((s) => s.kind === 'tool' && CHANGE_TOOLS.has(s.name)));
  const lastText = turns.flatMap((t) => t.steps.filter((s) => s.kind === 'text' && s.role === 'assistant')).at(-1);
  const lastSummary = changedAfter ? undefined : turns[lastAt]?.summaries?.at(-1);
  for (const turn of turns) {
    state.turn = turn.index;
    state.turnTasks = [];
    state.asks = [];
    state.signals = emptySignals();
    const first = turn.prompt !== undefined && !prompted;
    for (const summary of turn.summaries ?? []) runRules(RULES, { on: 'summary', ...summary, last: summary === lastSummary }, state);
    if (turn.prompt) {
      runRules(RULES, { on: 'prompt', prompt: turn.prompt, first }, state);
      prompted = true;
      // The goal states the opening prompt; the last ask is worth a line only when it came later.
      lastAsk = first ? null : clipWords(withoutAcks(turn.prompt.text.replace(/\s+/g, ' ').trim()), 40);
    }
    let finalText = -1;
    turn.steps.forEach((step, i) => {
      if (step.kind === 'text' && step.role === 'assistant') finalText = i;
    });
    turn.steps.forEach((step, i) => {
      if (step.kind === 'tool') runRules(RULES, { on: 'tool', step }, state);
      else runRules(RULES, { on: 'text', step, final: i === finalText, last: step === lastText }, state);
    });
    // The turn's end settles the status of what it asked for (prompt-facts.ts).
    builder.activeRule = 'prompt.turn-status';
    resolveTurn(turn, state, first);
    builder.activeRule = undefined;
  }
  resolveSummaryPaths(builder);
  validateGraph(builder);
  if (state.toolSession) dropProseTasks(builder);
  if (state.toolSession) dropProseChoices(builder);
  return builder.finish(sessionId, turns.length - 1, lastAsk);
}

/**
 * Where tools did the work and the log's own records (task lists, commits, reports, summaries)
 * name the tasks, a task only the prose rules read ("fix Hm, ok, nothing obvious in the trace")
 * is noise: it goes, its links with it.
 */
function dropProseTasks(builder: GraphBuilder): void {
  const tasks = builder.all('TASK');
  const prose = (n: DraftNode) => n.rules.every((r) => PROSE_RULE_IDS.has(r));
  if (!tasks.some((t) => !prose(t))) return;
  for (const task of tasks) if (prose(task)) builder.remove(task);
  // A bare name the prose called chosen ("PostHog", "paths") says nothing where tools did the work.
  // One with its why, or one a later choice replaced, is kept.
  for (const decision of builder.all('DECISION')) {
    if (prose(decision) && decision.label.split(/\s+/).length <= 2 && !decision.detail && !builder.linked(decision, 'SUPERSEDES')) builder.remove(decision);
  }
}

/**
 * Where tools did the work, a choice or a problem only the older prose rules read (a name the
 * reply called chosen without a why, a prompt read as a problem report) is noise beside what the log's records
 * and the stated-choice and stated-problem rules say: on the real-log set none of them was a
 * choice or a problem a person listed.
 */
function dropProseChoices(builder: GraphBuilder): void {
  for (const node of [...builder.all('DECISION'), ...builder.all('ERROR')]) {
    // A choice the prose gave the road not taken or its why ("fix the comparison to <=", "not changing X") stays;
    // a tool a report names in use ("used for ...") does not.
    const why = node.type === 'DECISION' && /^(?:not|because|since|instead|with)\b|\b(?:not|because|since|instead)\b/i.test(node.detail ?? '');
    if (node.rules.every((r) => PROSE_RULE_IDS.has(r)) && !why && !builder.linked(node, 'SUPERSEDES')) builder.remove(node);
  }
}

const PROSE_RULE_IDS = new Set(['prompt.ask', 'prompt.turn-status', 'prose.reply']);

/** "Nice. What's left?" -> "What's left?": the acknowledgement asks nothing. */
function withoutAcks(text: string): string {
  const all = sentences(text);
  let skip = 0;
  while (skip < all.length - 1 && classifyClause(all[skip]).kind === 'ack') skip++;
  return skip === 0 ? text : text.slice(text.indexOf(all[skip]));
}
