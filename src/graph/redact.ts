// Secrets never enter the graph: every text is passed through here before anything is extracted
// from it, with the same rules as export (src/secrets/rules.ts). Known key shapes are replaced
// whole; `name=value` assignments keep the name.

import { redactField, redactWith } from '../secrets/scan.js';

const MARK = '[REDACTED]';

/** `text` with every secret the rules of src/secrets find replaced by [REDACTED]. */
export function redactSecrets(text: string): string {
  if (text === '') return text;
  return redactWith(text, () => MARK).text;
}

/** Redacts every string inside a JSON value (tool inputs), returning a copy. */
export function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (!value || typeof value !== 'object' || depth > 32) return value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = typeof v === 'string' ? redactField(k, v, () => MARK).text : redactValue(v, depth + 1);
  return out;
}
