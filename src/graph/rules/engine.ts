// The rule engine: every judgement of the graph is an entry (id, what it matches, what it makes,
// why, examples) run in the table's order. A `final` rule that matches keeps the later rules of
// its kind from seeing the input; every node a rule makes records the rule's id.

import { GraphBuilder } from '../graph-builder.js';
import { emptySignals, type ExtractState } from '../extract-state.js';
import type { TextStep, ToolStep, Prompt } from '../session-turns.js';

/** A tool call with its result. */
export interface ToolInput {
  on: 'tool';
  step: ToolStep;
}
/** A text of the assistant; `final` when it is the turn's last. */
export interface TextInput {
  on: 'text';
  step: TextStep;
  final: boolean;
  /** The session's last reply: what it lists as still to do is where the session stopped. */
  last?: boolean;
}
/** A real user prompt; `first` for the session's first. */
export interface PromptInput {
  on: 'prompt';
  prompt: Prompt;
  first: boolean;
}
/** Claude Code's own compaction summary (an `isCompactSummary` line); `last` for the session's last one when no file changed after it (its pending work is still pending). */
export interface SummaryInput {
  on: 'summary';
  text: string;
  uuid: string;
  last: boolean;
}
export type RuleInput = ToolInput | TextInput | PromptInput | SummaryInput;
export type RuleKind = RuleInput['on'];

export interface Rule<I extends RuleInput = RuleInput> {
  id: string;
  on: I['on'];
  /** What the rule matches, in a sentence. */
  matches: string;
  /** What it makes. */
  makes: string;
  why: string;
  /** Since which client version a fact about Claude Code holds, and what showed it. */
  client?: string;
  /** True: an input this rule matched is not shown to the later rules of its kind. */
  final?: boolean;
  /** True: the rule runs only in sessions whose tools changed files (real coding sessions). */
  toolSessionsOnly?: boolean;
  match(input: I): boolean;
  make(input: I, state: ExtractState): void;
  /** Inputs it must make a node from, and inputs it must leave alone. */
  examples: { yes: I[]; no: I[] };
}

/** Runs the rules of an input's kind in order; returns the ids of those that matched. */
export function runRules(rules: readonly Rule[], input: RuleInput, state: ExtractState): string[] {
  const fired: string[] = [];
  for (const rule of rules) {
    if (rule.on !== input.on || (rule.toolSessionsOnly && !state.toolSession) || !rule.match(input)) continue;
    const before = state.builder.activeRule;
    state.builder.activeRule = rule.id;
    try {
      rule.make(input, state);
    } finally {
      state.builder.activeRule = before;
    }
    fired.push(rule.id);
    if (rule.final) break;
  }
  return fired;
}

/** A fresh extraction state, for the table test and for rules run alone. */
export function newState(cwd = '/repo'): ExtractState {
  return { builder: new GraphBuilder(), turn: 1, cwd, turnTasks: [], tasksById: new Map(), openErrors: [], signals: emptySignals(), proposals: [], asks: [], toolSession: true };
}

/** Example helpers: a tool step and a text step as the session gives them. */
export function toolStep(name: string, input: Record<string, unknown>, result = '', more: Partial<ToolStep> = {}): ToolInput {
  return { on: 'tool', step: { kind: 'tool', name, input: input as ToolStep['input'], result, isError: false, answered: true, uuid: 'u1', resultUuid: 'u2', cwd: '/repo', ...more } };
}
export function textStep(text: string, final = true, last = false): TextInput {
  return { on: 'text', step: { kind: 'text', role: 'assistant', text, uuid: 'u1' }, final, last };
}
export function promptStep(text: string, first = false): PromptInput {
  return { on: 'prompt', prompt: { text, uuid: 'u1' }, first };
}
export function summaryStep(text: string, last = true): SummaryInput {
  return { on: 'summary', text, uuid: 'u1', last };
}
