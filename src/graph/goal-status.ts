// The opening request is a piece of work like any later one: when the reply to it carried it out
// (work reported done or files changed, nothing left under way, no todo open, no error it raised
// still open), the goal is a completed task. A goal the reply only investigated, planned or left
// half done keeps no status, and later turns never mark it done by themselves.

import type { Turn } from './session-turns.js';
import type { ExtractState } from './extract-state.js';

export function resolveGoal(turn: Turn, state: ExtractState): void {
  const { goal, signals, builder } = state;
  if (!goal || turn.steps.length === 0) return;
  const worked = signals.completed || signals.fixed || signals.changedFiles.length > 0;
  const underWay = signals.inProgress.length > 0 || signals.unanswered > 0 || signals.openTodos > 0;
  // An error the turn raised and did not close (a failed run, a bug the prompt reported) leaves the request undone.
  const broken = state.openErrors.some((o) => o.node.lastTurn === turn.index);
  if (worked && !underWay && !broken) builder.advance(goal, 'completed', turn.index);
}
