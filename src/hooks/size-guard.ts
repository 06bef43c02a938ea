// The PostToolUse size guard's one decision: trim only when the log grew past the threshold
// since its last trim, never on every call. Pure.

import type { GuardState } from './trim-journal.js';

export type GuardDecision =
  | { action: 'trim'; grown: number }
  | { action: 'wait'; grown: number }
  /** The log shrank (restored, or trimmed by someone else): growth is measured from its size now. */
  | { action: 'rebase'; bytes: number };

export function sizeGuardDecision(bytesNow: number, last: GuardState | undefined, growthBytes: number): GuardDecision {
  const baseline = last?.bytes ?? 0;
  if (bytesNow < baseline) return { action: 'rebase', bytes: bytesNow };
  const grown = bytesNow - baseline;
  return grown >= growthBytes ? { action: 'trim', grown } : { action: 'wait', grown };
}
