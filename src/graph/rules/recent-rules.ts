// Rules for what today's client (2.1.50 and later) writes that the older logs did not: questions
// the session ends on (AskUserQuestion left unanswered) and the pre-commit hooks that block a
// commit. Kept apart from the older rules so each set can be read and tuned on its own logs.

import type { ToolStep } from '../session-turns.js';
import { clipWords } from '../labels.js';
import { normaliseLabel } from '../labels.js';
import { promptStep, textStep, toolStep, type PromptInput, type Rule, type TextInput, type ToolInput } from './engine.js';

function questionsOf(step: ToolStep): string[] {
  const questions = Array.isArray(step.input.questions) ? (step.input.questions as Record<string, unknown>[]) : [];
  return questions.map((q) => (q && typeof q.question === 'string' ? q.question : '')).filter((q) => q.length > 0);
}

/** The question's ask itself: "... unrelated to the change. Should I commit with --no-verify?" -> "Should I commit with --no-verify?". */
export function askedPart(question: string): string {
  const sentences = question
    .replace(/\s+/g, ' ')
    .trim()
    .split(/(?<=[.!?])\s+(?=[A-Z])/);
  const asked = [...sentences].reverse().find((s) => s.endsWith('?')) ?? sentences[sentences.length - 1];
  return clipWords(asked.replace(/^(?:should|shall|do you want|would you like)\s+(?:i|me|us|we)?\s*(?:to\s+)?/i, '').replace(/\?$/, ''), 12);
}

const unansweredQuestion: Rule<ToolInput> = {
  id: 'pending.unanswered-question',
  on: 'tool',
  client: 'AskUserQuestion from 2.0.x; a session that stops on it has the call without a result (seen in 2.1.50 logs)',
  matches: 'an AskUserQuestion call without an answer (the session ended on it)',
  makes: 'a pending TASK per question: "Answer: <what is asked>"',
  why: 'a question still waiting for the user is where the session stopped: the resuming engineer must get it answered first',
  final: true,
  match: ({ step }) => step.name === 'AskUserQuestion' && !step.answered && questionsOf(step).length > 0,
  make: ({ step }, state) => {
    for (const q of questionsOf(step)) state.builder.mention('TASK', `Answer: ${askedPart(q)}`, { confidence: 0.9, turn: state.turn, uuid: step.uuid, status: 'pending', fuzzy: false });
  },
  examples: {
    yes: [
      toolStep(
        'AskUserQuestion',
        {
          questions: [
            {
              question: 'The pre-commit hook failed on typecheck due to missing generated assets - this is pre-existing. Should I commit with --no-verify?',
              header: 'Commit',
              options: [{ label: 'Yes' }, { label: 'No' }],
            },
          ],
        },
        '',
        { answered: false },
      ),
    ],
    no: [toolStep('AskUserQuestion', { questions: [{ question: 'Which database?', header: 'DB', options: [] }] }, 'User has answered your questions: "Which database?"="SQLite".')],
  },
};

/** A numbered item led by a bold name: "1. **Merge + v2.0.0 tag** — the pipeline is untested". */
const BOLD_ITEM = /^\d+[.)]\s+\*\*([^*]{2,80})\*\*/;
/** Lead-ins of a report of finished work, and items that say they are done: not options. */
const DONE_LEAD = /\b(?:done|changes?|changed|fixed|created|added|updated|summary|completed|what i did)\b|[✓✅]/i;
const DONE_ITEM = /^(?:added|fixed|updated|created|removed|changed|moved|implemented|refactored|replaced|renamed|wrote|merged into|deleted|committed|pushed|restored|adjusted)\b/i;

/**
 * The options a session's last reply ends on: a lead-in ending in ":" then a numbered list of
 * bold-named items, with nothing after it but a question. Read from the layout, not the words, so
 * it holds in any language ("Sıradaki adım için seçenekler:", "Options from here:").
 */
export function offeredOptions(text: string): string[] {
  const lines = text
    .replace(/```[\s\S]*?```/g, '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  let end = lines.length;
  if (end > 0 && lines[end - 1].endsWith('?') && !BOLD_ITEM.test(lines[end - 1])) end--;
  const items: string[] = [];
  let i = end - 1;
  for (; i >= 0 && BOLD_ITEM.test(lines[i]); i--) items.unshift(BOLD_ITEM.exec(lines[i])![1].trim());
  const lead = (lines[i] ?? '').replace(/\*\*/g, '');
  if (items.length < 2 || !/:\s*$/.test(lead) || DONE_LEAD.test(lead)) return [];
  if (items.some((item) => DONE_ITEM.test(item))) return [];
  return items.map((item) => normaliseLabel(clipWords(item.replace(/`/g, ''), 10)));
}

const offeredNext: Rule<TextInput> = {
  id: 'pending.offered-options',
  on: 'text',
  matches: 'the session\'s last reply ending on a numbered list of bold-named options after a lead-in ending in ":" (no report of done work)',
  makes: 'a pending TASK per option, named by its bold words',
  why: 'the options a session ends on are the work it left for the user to pick from; the layout says so in any language',
  toolSessionsOnly: true,
  match: ({ step, last }) => last === true && offeredOptions(step.text).length > 0,
  make: ({ step }, state) => {
    for (const label of offeredOptions(step.text)) state.builder.mention('TASK', label, { confidence: 0.85, turn: state.turn, uuid: step.uuid, status: 'pending' });
  },
  examples: {
    yes: [
      textStep(
        "PR #3 is open and CI is green.\n\n**Options for the next step:**\n\n1. **Third review round** — the new code is unreviewed.\n2. **Rule engine (v3)** — the reviews' main proposal.\n3. **Merge + v2.0.0 tag** — the pipeline is untested.",
        true,
        true,
      ),
    ],
    no: [
      textStep('Done. Two changes:\n\n1. **Created** `.opencode/plugins/entire.js` — registers the skills\n2. **Updated** `.opencode/INSTALL.md` — mentions the plugin', true, true),
      textStep('Options:\n\n1. **Third review round** — x\n2. **Rule engine** — y', true, false),
    ],
  },
};

/** How a short instruction settles the way the work is done: where it goes, in how many pieces, in what place. */
const MANNER = /\b(?:directly (?:to|on|into|in)\b|in (?:one|a single) (?:batch|go|commit|pr|pass)\b|all at once|one (?:by one|at a time)|(?:in )?separate (?:commits|prs|branches)|straight to)/i;
const POLITE = /^(?:(?:ok(?:ay)?|yes|yeah|sure|great|good|alright|thanks)[,.!]?\s+)*(?:(?:please|pls|plz|pelase|plase|just|can you|could you|let'?s)\s+)*/i;

/** "pelase push directly to main" -> "Push directly to main"; undefined for a question or a long prompt. */
export function mannerInstruction(text: string): string | undefined {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.endsWith('?') || line.split(' ').length > 12 || !MANNER.test(line)) return undefined;
  const rest = line.replace(POLITE, '').replace(/[.!]+$/, '');
  if (rest.split(' ').length < 3) return undefined;
  return normaliseLabel(rest.charAt(0).toUpperCase() + rest.slice(1));
}

const mannerDirective: Rule<PromptInput> = {
  id: 'decision.manner-instruction',
  on: 'prompt',
  matches: 'a short later prompt that says how to do the work: "push directly to main", "do all of them in one batch", "separate commits" (not a question, at most 12 words)',
  makes: 'a DECISION labelled with the instruction, without its "please"/"okay" lead-in',
  why: 'a one-line instruction on where or in how many pieces the work goes settles the approach the resumed session must keep',
  toolSessionsOnly: true,
  match: ({ prompt, first }) => !first && mannerInstruction(prompt.text) !== undefined,
  make: ({ prompt }, state) => {
    const label = mannerInstruction(prompt.text);
    if (label) state.builder.mention('DECISION', label, { confidence: 0.85, turn: state.turn, uuid: prompt.uuid });
  },
  examples: {
    yes: [promptStep('pelase push directly to main'), promptStep('Do all of them in one batch')],
    no: [promptStep('can you push directly to main?'), promptStep('push directly to main', true), promptStep('commit and push')],
  },
};

/** Rules of today's client, in the order the engine runs them (before the older tool rules). */
export const RECENT_TOOL_RULES: Rule<ToolInput>[] = [unansweredQuestion];
/** Prompt rules of today's client (before the older prompt rules; none is final). */
export const RECENT_PROMPT_RULES: Rule<PromptInput>[] = [mannerDirective];
/** Text rules of today's client (before the older text rules; none is final). */
export const RECENT_TEXT_RULES: Rule<TextInput>[] = [offeredNext];
