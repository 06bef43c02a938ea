// The engine over the rules in rules.ts: finds every secret in a text, then replaces each with a
// mark naming its kind. Spans found by several rules are merged, so a secret is replaced once and
// marks are never matched again (redacting redacted text changes nothing).

import { PUBLIC_NAME, SECRET_RULES, type SecretRule } from './rules.js';
import { entropy, isPlaceholder, looksSecret } from './values.js';

export interface Finding {
  rule: SecretRule;
  start: number;
  end: number;
}

export interface RedactionReport {
  total: number;
  byKind: Record<string, number>;
}

export const emptyReport = (): RedactionReport => ({ total: 0, byKind: {} });

export function mergeReports(into: RedactionReport, add: RedactionReport): RedactionReport {
  into.total += add.total;
  for (const [kind, n] of Object.entries(add.byKind)) into.byKind[kind] = (into.byKind[kind] ?? 0) + n;
  return into;
}

/** Every keyword of every rule, for a quick "can this text hold a secret at all?". */
const ALL_KEYWORDS = [...new Set(SECRET_RULES.flatMap((r) => r.keywords))];
const ANY_KEYWORD = new RegExp(ALL_KEYWORDS.map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'i');
const ALWAYS = SECRET_RULES.filter((r) => r.keywords.length === 0);
/** The rules' patterns with match indices (the `d` flag), compiled once. */
const COMPILED = new Map(SECRET_RULES.map((r) => [r, new RegExp(r.pattern.source, r.pattern.flags.includes('d') ? r.pattern.flags : `${r.pattern.flags}d`)]));

/** False when no rule can match `text`: cheap enough to ask of every string of a log. */
export function mayHoldSecret(text: string): boolean {
  if (ANY_KEYWORD.test(text)) return true;
  return ALWAYS.some((r) => {
    const p = COMPILED.get(r)!;
    p.lastIndex = 0;
    return p.test(text);
  });
}

/** Keywords longest first, so one pass finds each place; a keyword inside a found one (`sk-` in `sk-ant-`) counts too. */
const KEYWORDS_G = new RegExp(
  [...ALL_KEYWORDS]
    .sort((a, b) => b.length - a.length)
    .map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|'),
  'gi',
);
const INSIDE = new Map(ALL_KEYWORDS.map((k) => [k, ALL_KEYWORDS.filter((other) => k.includes(other))]));

/** The rules worth running on `text`: those with a keyword in it (gitleaks' prefilter). */
function rulesFor(text: string): SecretRule[] {
  const present = new Set<string>();
  KEYWORDS_G.lastIndex = 0;
  for (let m = KEYWORDS_G.exec(text); m !== null; m = KEYWORDS_G.exec(text)) {
    for (const k of INSIDE.get(m[0].toLowerCase()) ?? []) present.add(k);
    KEYWORDS_G.lastIndex = m.index + 1; // keywords may overlap ('dp.' ends where '.atlasv1.' starts)
  }
  if (present.size === 0) return ALWAYS;
  return SECRET_RULES.filter((r) => r.keywords.length === 0 || r.keywords.some((k) => present.has(k)));
}

function accepts(rule: SecretRule, secret: string, groups: Record<string, string | undefined>, after: string): boolean {
  if (secret === '' || secret.startsWith('[REDACTED')) return false;
  if (rule.entropy !== undefined && entropy(secret) < rule.entropy) return false;
  if (groups.name !== undefined && (PUBLIC_NAME.test(groups.name) || LONE_NAME.test(groups.name))) return false;
  if (rule.value) {
    if (after === '(' || after === '.' || after === '[') return false; // a call or a member: code
    const sep = groups.sep;
    // A quoted value is a literal; `KEY=value` is how .env files and shells write one; anything
    // else unquoted (`token: x`, `key = x`) may as well be code.
    const literal = sep === undefined || /["'`]$/.test(sep) || sep === '=';
    if (!looksSecret(secret, rule.value, literal)) return false;
  }
  if (rule.id === 'url-credentials' && !urlPasswordIsSecret(groups.user ?? '', secret)) return false;
  return true;
}

/** A name that is only the keyword: `PASS:` in test output, `Token:` is kept (it labels a printed token). */
const LONE_NAME = /^(?:pass|auth|key)$/i;

/** Passwords in URLs of local databases are often the defaults; those are not secrets. */
const DEFAULT_PASSWORDS = /^(?:password|pass|passwd|pw|pwd|postgres|root|admin|secret|guest|changeme|test|example|user|mysql|redis|sa|dev|local|localhost)$/i;

function urlPasswordIsSecret(user: string, password: string): boolean {
  // Anything else there is a password as written: no code sits between :// and @.
  return password !== user && password.length >= 4 && !DEFAULT_PASSWORDS.test(password) && !isPlaceholder(password);
}

/** The whole identifier a name keyword ends (`DB_PASSWORD` for `PASSWORD`). */
function nameEndingAt(text: string, start: number, end: number): string {
  let from = start;
  while (from > 0 && /[A-Za-z0-9_.-]/.test(text[from - 1])) from--;
  return text.slice(from, end);
}

/** Where the secrets are in `text`, in order, overlapping finds merged. */
export function findSecrets(text: string): Finding[] {
  const found: Finding[] = [];
  for (const rule of rulesFor(text)) {
    const pattern = COMPILED.get(rule)!;
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      if (m[0] === '') {
        pattern.lastIndex++;
        continue;
      }
      const groups = { ...m.groups };
      const name = m.indices?.groups?.name;
      if (name) {
        groups.name = nameEndingAt(text, name[0], name[1]);
        // In a URL's query (?token=…&page=2) the query rule knows where the value ends.
        if (/[?&]/.test(text[name[1] - groups.name.length - 1] ?? '')) continue;
      }
      const span = m.indices?.groups?.secret ?? m.indices![0];
      const secret = text.slice(span[0], span[1]);
      if (accepts(rule, secret, groups, text[span[1]] ?? '')) found.push({ rule, start: span[0], end: span[1] });
    }
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Finding[] = [];
  for (const f of found) {
    const last = merged[merged.length - 1];
    if (last && f.start < last.end) last.end = Math.max(last.end, f.end);
    else merged.push({ ...f });
  }
  return merged;
}

/** `text` with every secret replaced by `mark(kind)`, and a count of what went (never the values). */
export function redactWith(text: string, mark: (kind: string) => string): { text: string; report: RedactionReport } {
  const report = emptyReport();
  if (text.length < 8) return { text, report };
  const findings = findSecrets(text);
  if (findings.length === 0) return { text, report };
  let out = '';
  let at = 0;
  for (const f of findings) {
    out += text.slice(at, f.start) + mark(f.rule.kind);
    at = f.end;
    report.total++;
    report.byKind[f.rule.kind] = (report.byKind[f.rule.kind] ?? 0) + 1;
  }
  return { text: out + text.slice(at), report };
}

/** Names of JSON fields whose value is judged as if written `name="value"`. */
const CREDENTIAL_FIELD = /pass|pwd|secret|token|key|auth|credential|sas|connection/i;

/**
 * Redacts the value of a JSON field: `{"password": "x"}` in a tool input has its name and value in
 * two strings, so the value alone would not show what it is.
 */
export function redactField(name: string | undefined, value: string, mark: (kind: string) => string): { text: string; report: RedactionReport } {
  const alone = redactWith(value, mark);
  if (name === undefined || alone.report.total > 0 || value.length < 6 || !CREDENTIAL_FIELD.test(name) || /[\s"]/.test(name)) return alone;
  const prefix = `${name}="`;
  const joined = redactWith(`${prefix}${value}"`, mark);
  if (joined.report.total === 0 || !joined.text.startsWith(prefix)) return alone;
  return { text: joined.text.slice(prefix.length, -1), report: joined.report };
}
