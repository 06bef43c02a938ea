// Rules for what today's client (2.1.50 and later) writes that the older logs did not: questions
// the session ends on (AskUserQuestion left unanswered) and the pre-commit hooks that block a
// commit. Kept apart from the older rules so each set can be read and tuned on its own logs.

import type { ToolStep } from '../session-turns.js';
import { clipWords } from '../labels.js';
import { toolStep, type Rule, type ToolInput } from './engine.js';

function questionsOf(step: ToolStep): string[] {
  const questions = Array.isArray(step.input.questions) ? (step.input.questions as Record<string, unknown>[]) : [];
  return questions.map((q) => (q && typeof q.question === 'string' ? q.question : '')).filter((q) => q.length > 0);
}

/** The question's ask itself: "... unrelated to the change. Should I commit with --no-verify?" -> "Should I commit with --no-verify?". */
export function askedPart(question: string): string {
  const sentences = question.replace(/\s+/g, ' ').trim().split(/(?<=[.!?])\s+(?=[A-Z])/);
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
        { questions: [{ question: 'The pre-commit hook failed on typecheck due to missing generated assets - this is pre-existing. Should I commit with --no-verify?', header: 'Commit', options: [{ label: 'Yes' }, { label: 'No' }] }] },
        '',
        { answered: false },
      ),
    ],
    no: [toolStep('AskUserQuestion', { questions: [{ question: 'Which database?', header: 'DB', options: [] }] }, 'User has answered your questions: "Which database?"="SQLite".')],
  },
};

/** Rules of today's client, in the order the engine runs them (before the older tool rules). */
export const RECENT_TOOL_RULES: Rule<ToolInput>[] = [unansweredQuestion];
