// Secrets never enter the graph: every text is passed through here before anything is extracted
// from it. Known key shapes are replaced whole; `name=value` assignments keep the name.

const MARK = '[REDACTED]';

/** Whole-token secrets recognisable by their shape. */
const TOKEN_PATTERNS: RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
  /\bsk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{16,}/g,
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bglpat-[A-Za-z0-9_-]{16,}/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bAIza[0-9A-Za-z_-]{30,}/g,
  /\b(?:rk|pk|sk)_(?:live|test)_[A-Za-z0-9]{16,}/g,
  /\bnpm_[A-Za-z0-9]{30,}/g,
  /\bhf_[A-Za-z0-9]{30,}/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
];

/** `Bearer <token>` and `Basic <token>` in headers. */
const AUTH_HEADER = /\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{12,}/g;

/** Credentials inside URLs: scheme://user:password@host. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]+@/gi;

/** `PASSWORD=...`, `api_key: "..."`, `--token abc`: the value goes, the name stays. */
const ASSIGNMENT =
  /(?<![A-Za-z0-9_])(-{0,2}[A-Za-z0-9_.]*(?:password|passwd|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret)[A-Za-z0-9_.-]*)(["']?\s*(?:=|:|\s)\s*["']?)([^\s"',;]{6,})/gi;

export function redactSecrets(text: string): string {
  if (text === '') return text;
  let out = text;
  for (const pattern of TOKEN_PATTERNS) out = out.replace(pattern, MARK);
  out = out.replace(AUTH_HEADER, `$1 ${MARK}`);
  out = out.replace(URL_CREDENTIALS, `$1${MARK}@`);
  out = out.replace(ASSIGNMENT, (whole, name: string, sep: string, value: string) => {
    // `password:` followed by a word in prose ("the token expires") is not a secret.
    if (value === MARK || !looksSecret(value) || (/^\s+$/.test(sep) && !name.startsWith('-'))) return whole;
    return `${name}${sep}${MARK}`;
  });
  return out;
}

/** A value that looks generated rather than written: mixes letters and digits, or is long. */
function looksSecret(value: string): boolean {
  if (value.includes('${') || value.startsWith('$') || value.startsWith('process.env') || value.startsWith('os.environ')) return false;
  if (/^(?:true|false|null|none|undefined|required|optional|string|number)$/i.test(value)) return false;
  const hasDigit = /\d/.test(value);
  const hasLetter = /[A-Za-z]/.test(value);
  return (hasDigit && hasLetter) || value.length >= 16 || /[^A-Za-z0-9]/.test(value);
}

/** Redacts every string inside a JSON value (tool inputs), returning a copy. */
export function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (!value || typeof value !== 'object' || depth > 32) return value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = redactValue(v, depth + 1);
  return out;
}
