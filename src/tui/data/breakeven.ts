// Break-even data for the detail pane: the cost module prices the session and the trim preview
// already made (the log is not read again). Imported dynamically: without src/cost the pane says
// the chart is not available.

import { configPath } from '../../config/config-file.js';
import type { Session } from '../../session/session.js';
import type { TrimResult } from '../../trim/trim.js';
import { settle, type Availability } from './availability.js';

export interface BreakEvenView {
  model: string;
  /** Dollars the first call after the trim costs extra (warm cache). */
  penalty: number;
  savingPerTurn: number;
  breakEvenTurns: number | null;
  cold: { penalty: number; breakEvenTurns: number | null };
  /** Cumulative dollars after the trim, call by call (warm resume). */
  curve: { turn: number; withoutTrim: number; withTrim: number }[];
  tokensBefore: number;
  tokensAfter: number;
}

export async function loadBreakEven(session: Session, trim: TrimResult, model: string | null): Promise<Availability<BreakEvenView>> {
  return settle('the break-even chart', async () => {
    const [{ costOfSession, assertAnalysable }, { tokenBreakdown }, { loadRegistry }] = await Promise.all([
      import('../../analyze/session-cost.js'),
      import('../../tokens/breakdown.js'),
      import('../../cost/model-config.js'),
    ]);
    assertAnalysable(session);
    const cost = costOfSession(session, tokenBreakdown(session), trim, { registry: loadRegistry(undefined, configPath()), model: model ?? undefined });
    return {
      model: cost.pricedAs,
      penalty: cost.penalty,
      savingPerTurn: cost.savingPerTurn,
      breakEvenTurns: cost.breakEvenTurns,
      cold: cost.cold,
      curve: cost.curve,
      tokensBefore: cost.tokens.before,
      tokensAfter: cost.tokens.after,
    };
  });
}
