// Calibration of the tokenizer against the API: for each logged call on the active path, the
// prompt size the API reported against the tokenizer's count of the messages before it. A least
// squares line gives the ratio (API tokens per counted token) and the fixed overhead (system
// prompt and tool definitions, which the log does not hold).

import type { TokenBreakdown } from './breakdown.js';
import type { Conversation } from '../session/conversation.js';
import { promptTokens } from './usage.js';

export interface Calibration {
  /** API tokens per tokenizer token; null when the log has too few usage figures. */
  ratio: number | null;
  /** Prompt tokens the log does not show (system prompt, tools), estimated. */
  overheadTokens: number | null;
  /** Calls used for the fit. */
  samples: number;
  /** Goodness of the fit, 0..1. */
  r2: number | null;
}

export function calibrate(conversation: Conversation, breakdown: TokenBreakdown): Calibration {
  const points: { counted: number; reported: number }[] = [];
  let counted = 0;
  const seen = new Set<string>();
  for (const { entry, tokens } of breakdown.perEntry) {
    const response = conversation.responseOf.get(entry);
    if (response?.usage && !response.synthetic && !response.derived && !seen.has(response.key)) {
      // The call that produced this response saw everything counted so far.
      seen.add(response.key);
      points.push({ counted, reported: promptTokens(response.usage) });
    }
    counted += tokens;
  }
  const usable = points.filter((p) => p.reported > 0);
  if (usable.length < 3) return { ratio: null, overheadTokens: null, samples: usable.length, r2: null };
  const n = usable.length;
  const meanX = usable.reduce((a, p) => a + p.counted, 0) / n;
  const meanY = usable.reduce((a, p) => a + p.reported, 0) / n;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (const p of usable) {
    sxx += (p.counted - meanX) ** 2;
    sxy += (p.counted - meanX) * (p.reported - meanY);
    syy += (p.reported - meanY) ** 2;
  }
  if (sxx === 0) return { ratio: null, overheadTokens: null, samples: n, r2: null };
  const ratio = sxy / sxx;
  const overhead = meanY - ratio * meanX;
  const r2 = syy === 0 ? 1 : (sxy * sxy) / (sxx * syy);
  return { ratio: round(ratio, 3), overheadTokens: Math.round(overhead), samples: n, r2: round(r2, 3) };
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
