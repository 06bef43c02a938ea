// Why a trim writes nothing: its output failed verification (a fault of cmv's, or one the log
// already had), or a budget it could not meet. One place, for every way a trim is written.

import type { TrimResult } from './trim.js';
import { structuralFaults } from './verify.js';
import { CmvError } from '../errors.js';

/** Throws the error that says why `result` must not be written; returns when it may be. */
export function refuseUnwritable(result: TrimResult): void {
  if (!result.verify.ok) {
    // Faults the log already had (an empty message, a chain restarted mid-file) are the input's,
    // not a fault of cmv's to report.
    const had = new Set(structuralFaults(result.index).map((f) => f.message));
    if (result.verify.faults.every((f) => had.has(f.message))) {
      throw new CmvError('VERIFY_FAILED', `the log already has ${result.verify.faults.length} fault(s) a trim would carry over; nothing was written`, {
        hint: `first: ${result.verify.faults[0]?.message ?? '?'}; Claude Code reads this log as it is: keep it untrimmed, or branch from an earlier snapshot`,
        details: result.verify,
      });
    }
    throw new CmvError('VERIFY_FAILED', `the trimmed log failed verification (${result.verify.faults.length} faults); nothing was written`, {
      hint: `first fault: ${result.verify.faults[0]?.message ?? '?'}; please report it with the session's shape (cmv stats --json)`,
      details: result.verify,
    });
  }
  if (result.budget && !result.budget.met) {
    throw new CmvError('BUDGET_UNMET', `cannot fit the session into ${result.budget.budget} tokens: ${result.budget.tokensAfter} remain after evicting all that may go; nothing was written`, {
      hint: 'raise --budget, or drop it to keep the lossless trim only',
      details: result.budget,
    });
  }
}
