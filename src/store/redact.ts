// Secret redaction for content that leaves the machine (export, push): a pure function from text
// to text plus a count of what it replaced, with the rules of src/secrets. Logs are raw JSONL, so
// each JSON string is decoded, redacted as the text it holds (a .env file read, JSON inside an
// assistant's reply, a key block with real newlines) and written back as a JSON string: a redacted
// line is still the same record, byte for byte outside the strings that held a secret.

import { mayHoldSecret, mergeReports as mergeInto, redactField, redactWith, type RedactionReport } from '../secrets/scan.js';

export { entropy, looksSecret } from '../secrets/values.js';
export type { RedactionReport } from '../secrets/scan.js';

/** The kinds the rules name (src/secrets/rules.ts): `anthropic-key`, `password`, `private-key`, ... */
export type SecretKind = string;

export function mark(kind: SecretKind): string {
  return `[REDACTED:${kind}]`;
}

/** A JSON string literal in raw text: the quotes, and escapes kept whole. */
const STRING_LITERAL = /"(?:[^"\\\n]|\\.)*"/g;

function redactJsonLine(line: string, report: RedactionReport): string {
  if (!mayHoldSecret(line)) return line;
  let key: string | undefined;
  return line.replace(STRING_LITERAL, (literal: string, offset: number) => {
    // A literal followed by ':' is a field's name; one after ':' is that field's value.
    const isName = /^\s*:/.test(line.slice(offset + literal.length, offset + literal.length + 8));
    const isValue = !isName && /:\s*$/.test(line.slice(Math.max(0, offset - 8), offset));
    const name = isValue ? key : undefined;
    if (isName) key = literal.length < 80 ? decode(literal) : undefined;
    if (isName || literal.length < 8 || (name === undefined && !mayHoldSecret(literal))) return literal;
    const value = decode(literal);
    if (value === undefined) return literal;
    const redacted = redactField(name, value, mark);
    if (redacted.report.total === 0) return literal;
    mergeInto(report, redacted.report);
    return JSON.stringify(redacted.text);
  });
}

function decode(literal: string): string | undefined {
  try {
    const value: unknown = JSON.parse(literal);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Replaces the secrets in `text`, raw JSONL or JSON (a log page, graph.json); a line that is not
 * JSON is redacted as plain text. The report counts them by kind (never their values).
 */
export function redactText(text: string): { text: string; report: RedactionReport } {
  const report: RedactionReport = { total: 0, byKind: {} };
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const first = line.trimStart()[0];
    if (first === '{' || first === '[' || first === '"') lines[i] = redactJsonLine(line, report);
    else if (line !== '') {
      const plain = redactWith(line, mark);
      mergeInto(report, plain.report);
      lines[i] = plain.text;
    }
  }
  return { text: report.total === 0 ? text : lines.join('\n'), report };
}

/** Redacts every string in a JSON value (a snapshot's meta), except under the keys in `keep`. */
export function redactStrings<T>(value: T, report: RedactionReport, keep: ReadonlySet<string> = new Set(), depth = 0): T {
  if (typeof value === 'string') {
    const r = redactWith(value, mark);
    mergeInto(report, r.report);
    return r.text as T;
  }
  if (!value || typeof value !== 'object' || depth > 64) return value;
  if (Array.isArray(value)) return value.map((v) => redactStrings(v, report, keep, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (keep.has(k)) out[k] = v;
    else if (typeof v === 'string') {
      const r = redactField(k, v, mark);
      mergeInto(report, r.report);
      out[k] = r.text;
    } else out[k] = redactStrings(v, report, keep, depth + 1);
  }
  return out as T;
}

export function mergeReports(into: RedactionReport, add: RedactionReport): RedactionReport {
  return mergeInto(into, add);
}
