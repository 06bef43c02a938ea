// Whether the opening request was carried out: when the reply to it did work (reported it done or
// changed files), left nothing under way and no todo open, and closed every error it raised, the
// goal is a completed task. Stricter than a later task, which is done unless something says not. A goal the reply only investigated, planned or left
// half done keeps no status, and later turns never mark it done by themselves.

import type { Turn } from './session-turns.js';
import { workDone, type ExtractState } from './extract-state.js';

export function resolveGoal(turn: Turn, state: ExtractState): void {
  const { goal, signals, builder } = state;
  if (!goal || turn.steps.length === 0) return;
  const worked = workDone(state);
  const underWay = signals.inProgress.length > 0 || signals.unanswered > 0 || signals.openTodos > 0;
  // An error the turn raised and did not close (a failed run, a bug the prompt reported) leaves the request undone.
  const broken = state.openErrors.some((o) => o.node.lastTurn === turn.index);
  if (worked && !underWay && !broken) builder.advance(goal, 'completed', turn.index);
}
