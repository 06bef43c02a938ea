// Secret redaction for content that leaves the machine (export, push): a pure function from text
// to text plus a count of what it replaced. It runs on raw JSONL, where strings hold escapes
// (`\n`, `\"`), so patterns stop at backslashes and quotes, and replacements contain neither:
// a redacted line is still the same JSON record, with the secret's characters replaced.

export type SecretKind =
  | 'anthropic-key'
  | 'openai-key'
  | 'aws-access-key'
  | 'aws-secret-key'
  | 'github-token'
  | 'slack-token'
  | 'google-api-key'
  | 'stripe-key'
  | 'private-key'
  | 'url-credentials'
  | 'url-token'
  | 'password'
  | 'jwt'
  | 'bearer-token'
  | 'credential';

export interface RedactionReport {
  total: number;
  byKind: Partial<Record<SecretKind, number>>;
}

export function mark(kind: SecretKind): string {
  return `[REDACTED:${kind}]`;
}

/** Shannon entropy in bits per character. */
export function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** A value that looks like a real secret rather than a placeholder, a path or a word. */
export function looksSecret(value: string, minLength = 12): boolean {
  if (value.length < minLength) return false;
  if (value.startsWith('[REDACTED')) return false;
  if (/^(?:x+|\*+|\.+|<[^>]*>|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|%[A-Za-z_]+%|changeme|password|example|placeholder|your[_-]?\w*)$/i.test(value)) return false;
  if (/^\/|^[a-z]+(?:[._-][a-z]+)*$/.test(value)) return false; // a path, or plain words
  const bits = entropy(value);
  return bits >= 3.5 || (bits >= 3.0 && /\d/.test(value) && /[A-Za-z]/.test(value));
}

interface Rule {
  kind: SecretKind;
  pattern: RegExp;
  /** Builds the replacement; return the match itself to keep it. */
  replace: (match: string, groups: string[]) => string;
}

// Where a word may start in raw JSON text: after a non-word char, or after an escape like \n.
const START = String.raw`(?:(?<=\\[nrt])|(?<![A-Za-z0-9_]))`;
// A value inside JSON text: up to whitespace, a quote, a backslash (an escape) or a delimiter.
const VALUE = String.raw`[^\s"'\\,;&)<>\]}]+`;

const whole = (kind: SecretKind) => () => mark(kind);

const RULES: Rule[] = [
  {
    kind: 'private-key',
    pattern: /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----[\s\S]*?-----END \1PRIVATE KEY\2-----/g,
    replace: whole('private-key'),
  },
  { kind: 'anthropic-key', pattern: new RegExp(`${START}sk-ant-[A-Za-z0-9_-]{20,}`, 'g'), replace: whole('anthropic-key') },
  {
    kind: 'openai-key',
    pattern: new RegExp(`${START}sk-(?:proj-|svcacct-|admin-)?([A-Za-z0-9_-]{20,})`, 'g'),
    replace: (m, [body]) => (looksSecret(body, 20) ? mark('openai-key') : m),
  },
  { kind: 'stripe-key', pattern: new RegExp(`${START}(?:sk|rk)_live_[A-Za-z0-9]{16,}`, 'g'), replace: whole('stripe-key') },
  { kind: 'aws-access-key', pattern: new RegExp(`${START}(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Z])`, 'g'), replace: whole('aws-access-key') },
  { kind: 'github-token', pattern: new RegExp(`${START}(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})`, 'g'), replace: whole('github-token') },
  { kind: 'slack-token', pattern: new RegExp(`${START}xox[abposr]-[A-Za-z0-9-]{10,}`, 'g'), replace: whole('slack-token') },
  { kind: 'slack-token', pattern: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]+/g, replace: () => `https://hooks.slack.com/services/${mark('slack-token')}` },
  { kind: 'google-api-key', pattern: new RegExp(`${START}AIza[0-9A-Za-z_-]{35}`, 'g'), replace: whole('google-api-key') },
  { kind: 'jwt', pattern: new RegExp(`${START}eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}`, 'g'), replace: whole('jwt') },
  {
    // scheme://user:password@host
    kind: 'url-credentials',
    pattern: /([a-z][a-z0-9+.-]*:\/\/[^\s:/@"'\\]+):([^\s@/"'\\]+)@/gi,
    replace: (m, [prefix, secret]) => (secret.startsWith('[REDACTED') ? m : `${prefix}:${mark('url-credentials')}@`),
  },
  {
    // ?token=... &api_key=... in URLs
    kind: 'url-token',
    pattern: new RegExp(String.raw`([?&](?:access_token|refresh_token|id_token|token|api[_-]?key|apikey|key|secret|client_secret|sig|signature|password|auth)=)(${VALUE})`, 'gi'),
    replace: (m, [key, value]) => (value.length >= 8 && !value.startsWith('[REDACTED') ? `${key}${mark('url-token')}` : m),
  },
  {
    kind: 'aws-secret-key',
    pattern: new RegExp(String.raw`(aws_secret_access_key\\?["']?\s*[=:]\s*\\?["']?)([A-Za-z0-9/+=]{40})`, 'gi'),
    replace: (_m, [key]) => `${key}${mark('aws-secret-key')}`,
  },
  {
    kind: 'bearer-token',
    pattern: new RegExp(String.raw`((?:Authorization\\?["']?\s*[:=]\s*\\?["']?)?(?:Bearer|Token|Basic)\s+)([A-Za-z0-9._~+/=-]{16,})`, 'g'),
    replace: (m, [prefix, value]) => (looksSecret(value, 16) ? `${prefix}${mark('bearer-token')}` : m),
  },
  {
    // password = ..., "password": "...", PASSWORD=... (also with JSON-escaped quotes)
    kind: 'password',
    pattern: new RegExp(String.raw`${START}((?:[A-Za-z0-9_]*_)?(?:password|passwd|pwd|passphrase)\\?["']?\s*[=:]\s*\\?["']?)(${VALUE})`, 'gi'),
    replace: (m, [key, value]) => (value.length >= 4 && !value.startsWith('[REDACTED') && !/^(?:\*+|x+|null|none|true|false|undefined|\$\{?\w+\}?)$/i.test(value) ? `${key}${mark('password')}` : m),
  },
  {
    // High-entropy values of credential-named keys: API_KEY=..., "client_secret": "...", x-api-key: ...
    kind: 'credential',
    pattern: new RegExp(
      String.raw`${START}((?:[A-Za-z0-9_-]*[_-])?(?:api[_-]?key|apikey|secret|secret[_-]?key|access[_-]?key|private[_-]?key|auth[_-]?token|access[_-]?token|refresh[_-]?token|token|credentials?|client[_-]?secret)\\?["']?\s*[=:]\s*\\?["']?)(${VALUE})`,
      'gi',
    ),
    replace: (m, [key, value]) => (looksSecret(value) ? `${key}${mark('credential')}` : m),
  },
];

/** Replaces the secrets in `text`; the report counts them by kind (never their values). */
export function redactText(text: string): { text: string; report: RedactionReport } {
  const report: RedactionReport = { total: 0, byKind: {} };
  let out = text;
  for (const rule of RULES) {
    rule.pattern.lastIndex = 0;
    out = out.replace(rule.pattern, (match: string, ...rest: unknown[]) => {
      // rest = captures..., offset, whole string
      const groups = rest.slice(0, -2).map((g) => (typeof g === 'string' ? g : ''));
      const replaced = rule.replace(match, groups);
      if (replaced !== match) {
        report.total++;
        report.byKind[rule.kind] = (report.byKind[rule.kind] ?? 0) + 1;
      }
      return replaced;
    });
  }
  return { text: out, report };
}

export function mergeReports(into: RedactionReport, add: RedactionReport): RedactionReport {
  into.total += add.total;
  for (const [kind, n] of Object.entries(add.byKind) as [SecretKind, number][]) into.byKind[kind] = (into.byKind[kind] ?? 0) + n;
  return into;
}
