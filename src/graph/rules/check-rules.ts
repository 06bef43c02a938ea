// Rules on a plan's checks: the manual verification a written or approved plan lists is work left
// to a person, open when the log ends unless the session says it was done.

import type { ExtractState } from '../extract-state.js';
import { promptStep, toolStep, type PromptInput, type Rule, type ToolInput } from './engine.js';
import { PLAN_PROMPT } from './decision-rules.js';
import { isPlanFile, parsePlan } from './plan.js';

const REJECTED = /user doesn't want to proceed|tool use was rejected/i;

const PLAN = '# Plan: Block large repos\n\n## Verification\n\n1. `bun run test` — all existing tests pass\n2. Manual test: run the API in cloud mode, evaluate a large repo, confirm rejection\n';
const DESIGN = '# Session end\n\n### Testing\n\n**Unit tests:**\n- Verify `EndedAt` serializes\n\n**Manual verification:**\n- Run Claude session, exit, verify the state file has `ended_at`\n';

function checksOf(text: string, state: ExtractState, uuid: string | undefined): void {
  for (const check of parsePlan(text).manualChecks) state.builder.mention('TASK', check, { confidence: 0.85, turn: state.turn, uuid, status: 'pending', fuzzy: false });
}

const planChecks: Rule<ToolInput> = {
  id: 'plan.manual-checks',
  on: 'tool',
  client: 'plan mode writes the plan to a file or hands it to ExitPlanMode (2.0.x-2.1.x); design docs are written under docs/plans/ (seen in 2.1.29 logs)',
  matches:
    'a Write of a plan file, or ExitPlanMode the user approved, whose plan lists manual checks ("Manual test: ...", the items under "**Manual verification:**" of "## Verification"/"## Testing")',
  makes: 'a pending TASK per manual check ("Manual verification: <item>" when the group, not the item, says manual)',
  why: 'a check the plan leaves to a person (run the app, exit a session, try the UI) is not something the session performs; it is open work for whoever resumes',
  match: ({ step }) =>
    (step.name === 'Write' && typeof step.input.file_path === 'string' && isPlanFile(step.input.file_path) && typeof step.input.content === 'string' && step.answered && !step.isError) ||
    (step.name === 'ExitPlanMode' && typeof step.input.plan === 'string' && step.answered && !step.isError && !REJECTED.test(step.result)),
  make: ({ step }, state) => checksOf(String(step.name === 'Write' ? step.input.content : step.input.plan), state, step.uuid),
  examples: {
    yes: [
      toolStep('Write', { file_path: '/repo/docs/plans/session-end.md', content: DESIGN }, 'File created successfully', { sidecar: { type: 'create' } }),
      toolStep('ExitPlanMode', { plan: PLAN }, 'User has approved your plan.'),
    ],
    no: [
      toolStep('Write', { file_path: '/repo/docs/plans/session-end.md', content: '# Session end\n\n### Testing\n\n**Unit tests:**\n- Verify `EndedAt` serializes\n' }, 'File created successfully'),
      toolStep('ExitPlanMode', { plan: PLAN }, "The user doesn't want to proceed with this tool use. The tool use was rejected", { isError: true }),
    ],
  },
};

const planPromptChecks: Rule<PromptInput> = {
  id: 'plan.prompt-manual-checks',
  on: 'prompt',
  client: 'after the user approves a plan and clears the context, Claude Code opens the new context with "Implement the following plan:" holding the plan (seen in 2.1.37 and 2.1.5x logs)',
  matches: 'a prompt "Implement the following plan:" whose plan lists manual checks',
  makes: 'a pending TASK per manual check, as plan.manual-checks does',
  why: 'the plan the user approved leaves those checks to a person; the session implementing it does not perform them',
  match: ({ prompt }) => PLAN_PROMPT.test(prompt.text) && parsePlan(prompt.text).manualChecks.length > 0,
  make: ({ prompt }, state) => checksOf(prompt.text, state, prompt.uuid),
  examples: {
    yes: [promptStep(`Implement the following plan:\n\n${PLAN}`, true)],
    no: [promptStep('Implement the following plan:\n\n# Plan: Block large repos\n\n## Verification\n\n1. `bun run test` — all tests pass\n', true), promptStep(PLAN, true)],
  },
};

export const CHECK_TOOL_RULES: Rule<ToolInput>[] = [planChecks];
export const CHECK_PROMPT_RULES: Rule<PromptInput>[] = [planPromptChecks];
