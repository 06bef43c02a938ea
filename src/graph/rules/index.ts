// The rule table: every rule of the graph, in the order the engine runs them within a kind
// (tool calls, compaction summaries, prompts, replies). Add a rule by adding an entry here.

import type { Rule } from './engine.js';
import { TOOL_RULES } from './tool-rules.js';
import { SUMMARY_RULES } from './summary-rules.js';
import { PROMPT_RULES, TEXT_RULES } from './text-rules.js';
import { RECENT_PROMPT_RULES, RECENT_TEXT_RULES, RECENT_TOOL_RULES } from './recent-rules.js';
import { WORK_TEXT_RULES, WORK_TOOL_RULES } from './work-rules.js';
import { STATED_PROMPT_RULES, STATED_SUMMARY_RULES, STATED_TEXT_RULES } from './stated-rules.js';
import { CHECK_PROMPT_RULES, CHECK_TOOL_RULES } from './check-rules.js';
import { DECISION_PROMPT_RULES, DECISION_TEXT_RULES, DECISION_TOOL_RULES } from './decision-rules.js';

export const RULES: readonly Rule[] = [
  ...CHECK_TOOL_RULES,
  ...RECENT_TOOL_RULES,
  ...DECISION_TOOL_RULES,
  ...WORK_TOOL_RULES,
  ...TOOL_RULES,
  ...SUMMARY_RULES,
  ...STATED_SUMMARY_RULES,
  ...CHECK_PROMPT_RULES,
  ...DECISION_PROMPT_RULES,
  ...RECENT_PROMPT_RULES,
  ...STATED_PROMPT_RULES,
  ...PROMPT_RULES,
  ...DECISION_TEXT_RULES,
  ...STATED_TEXT_RULES,
  ...RECENT_TEXT_RULES,
  ...WORK_TEXT_RULES,
  ...TEXT_RULES,
] as Rule[];

export function ruleById(id: string): Rule | undefined {
  return RULES.find((r) => r.id === id);
}

export { runRules, newState, type Rule, type RuleInput } from './engine.js';
