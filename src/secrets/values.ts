// Judging a value found where a secret could be (after `token:`, in `--password X`): is it a
// generated secret, or code, a placeholder, a path or a word? Generic rules ask this; rules for a
// vendor's own format do not need to.

/** Shannon entropy in bits per character. */
export function entropy(text: string): number {
  if (text === '') return 0;
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** How much a name promises a secret: a password field takes a typed password, a `*Key` only a generated one. */
export type Strength = 'password' | 'token' | 'key';

const PLACEHOLDER =
  /^(?:x{3,}|\*+|\.{2,}|…|-+|_+|#+|changeme|change[_-]?me|password|passw0rd|secret|token|example|placeholder|dummy|sample|redacted|none|null|nil|undefined|true|false|yes|no|on|off|required|optional|string|str|number|int|integer|bool|boolean|bytes|any|object|unknown|empty|default|test|testing|foo|bar|baz|todo|tbd|fixme)$/i;

/** Words inside a value that mark it as a stand-in for one (`your-api-key-here`, `sk-xxxx…`). */
const STAND_IN = /your[_-]?|xxxx|\*\*\*|<[^>]*>|\{\{|\}\}|example|placeholder|changeme|redacted|insert[_-]|replace[_-]?me|dummy|\.\.\.|…/i;

/** A reference to a secret kept elsewhere: an environment variable, a template, a lookup. */
const REFERENCE =
  /^(?:\$|%[A-Za-z_]\w*%$|[@&*][A-Za-z_][\w.-]*$|process\.env|import\.meta|os\.environ|os\.getenv|env[.[(:]|ENV[[.]|System\.getenv|secrets\.|vars\.|config[.[]|settings\.|self\.|this\.|ctx\.|req\.|options\.|props\.|params\.|args\.|getenv|fetch|await |new |function|lambda|=>)/i;

/**
 * Code rather than a literal: `this.options.authToken`, `authHeader.substring(7)`, `getToken()`,
 * a name made of words (`apiKey`, `AuthCredentials`).
 */
export function looksLikeCode(value: string): boolean {
  if (/[()]/.test(value)) return true;
  if (/\?\?|\|\||&&|===|!==|=>|^=[A-Za-z_$][\w$]*[.[]/.test(value)) return true; // operators; 'a.b==c.d' seen from its first '='
  if (/[A-Za-z_$][\w$]*\.[A-Za-z_$][\w$]*=/.test(value)) return true; // a chain of assignments: a.b=c.d=
  if (/[A-Za-z_$][\w$]*\??\.[A-Za-z_$][\w$]*[+\-*/]/.test(value) && !/^[\w-]+\.[\w-]+\.[\w-]+$/.test(value)) return true; // member paths joined by an operator
  if (/^[A-Za-z_$][\w$]*(?:(?:\.|\?\.|::|->)[A-Za-z_$][\w$]*)+[;,]?$/.test(value)) return true; // a member path
  if (/^[A-Za-z_$][\w$]*\[[^\]]*\]/.test(value)) return true; // an index: argv[2]
  if (/^[A-Za-z_$][\w$]*[;,]?$/.test(value) && looksLikeWords(value.replace(/[;,]$/, ''))) return true; // a name made of words
  return false;
}

/** A path, a URL or a file name rather than a secret. */
function looksLikeLocation(value: string): boolean {
  // A path: words between slashes (base64 has + and =, and long mixed runs of letters and digits).
  if (/^(?:\.{1,2}|~)?(?:\/[\w.@-]*)+$/.test(value) && value.split('/').every((seg) => seg.length < 20 || !/\d/.test(seg) || !/[a-z]/.test(seg) || !/[A-Z]/.test(seg))) return true;
  if (/^(?:[A-Za-z]:\\|file:)/.test(value)) return true;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return true;
  if (/^[\w.-]+(?:\/[\w.-]+)+\.[A-Za-z]{1,5}$/.test(value) && !/[+=]/.test(value)) return true;
  if (/^[\w-]+\.(?:json|ya?ml|toml|env|txt|pem|key|crt|p12|pfx|ts|js|py|sh)$/i.test(value)) return true;
  return false;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Commit ids and content hashes: random-looking, but not secrets when the name only says "key". */
const HASH = /^(?:[0-9a-f]{7,12}|[0-9a-f]{40}|[0-9a-f]{64}|[0-9a-f]{128}|sha\d+[-:].*)$/i;

/** Made of words: `TestParseLogLevel/WARN_lowercase`, `dotenv@17.2.0`, `Uint8Array`, `v1.2.3`. */
function looksLikeWords(value: string): boolean {
  if (/^[\w.-]+@\^?~?\d+(?:\.\d+)*/.test(value)) return true; // package@version
  if (/^v?\d+(?:\.\d+){1,3}(?:-[\w.]+)?$/.test(value)) return true; // a version
  const parts = value.split(/[/_.:@-]+/).filter(Boolean);
  return parts.length > 0 && parts.every(isIdentifierWords);
}

/**
 * camelCase / PascalCase / UPPER words with short numbers, what names in code are made of
 * (`Uint8Array`, `RejectsInvalidSessionIDs`); a generated string soon has a lone lower-case
 * letter or a long number in it.
 */
function isIdentifierWords(part: string): boolean {
  let words = 0;
  let short = 0;
  let numbers = 0;
  for (const piece of part.match(/[A-Z]{2,}s(?![a-z])|[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+|[^A-Za-z0-9]/g) ?? []) {
    if (/^\d+$/.test(piece)) {
      if (piece.length > 3) return false;
      numbers++;
      continue;
    }
    if (/[^A-Za-z]/.test(piece)) return false;
    words++;
    if (piece.length < 3) short++;
    else if (/[a-z]/.test(piece) && !/[aeiouy]/i.test(piece)) return false; // 'pdz', 'wsjnw': no word
  }
  // Random letters split into pieces of one or two, and numbers; names into words.
  return words > 0 && short * 3 <= words && numbers <= 1;
}

/** A stand-in for a secret, or a reference to one kept elsewhere. */
export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value) || STAND_IN.test(value) || REFERENCE.test(value);
}

/**
 * A value written where a secret goes that is one: not code, not a placeholder, random enough
 * for its name. `literal`: it was quoted or written as an .env value, so a word with a digit
 * (`Hunter2`) may be a password there, where unquoted it would be a name in code (`Uint8Array`).
 */
export function looksSecret(value: string, strength: Strength = 'token', literal = true): boolean {
  if (value.startsWith('[REDACTED')) return false;
  if (isPlaceholder(value)) return false;
  if (looksLikeCode(value) || looksLikeLocation(value)) return false;
  if ((!literal || strength !== 'password' || !/\d/.test(value)) && looksLikeWords(value)) return false;
  const hasDigit = /\d/.test(value);
  const hasLetter = /[A-Za-z]/.test(value);
  const hasSymbol = /[^A-Za-z0-9]/.test(value);
  const mixedCase = /[a-z]/.test(value) && /[A-Z]/.test(value);
  const bits = entropy(value);
  if (strength === 'password') {
    // Typed passwords are short and low in entropy; a word with a digit or a symbol is enough.
    return value.length >= 6 && hasLetter && (hasDigit || hasSymbol || mixedCase) && bits >= 2.2;
  }
  if (strength === 'key') {
    if (UUID.test(value) || HASH.test(value)) return false;
    return value.length >= 16 && hasDigit && hasLetter && bits >= 3.3;
  }
  if (value.length < 8 || bits < 2.8) return false;
  if (/^\d+$/.test(value)) return value.length >= 24; // numeric ids and ports are not tokens
  if (/^[0-9a-f]{7,12}$/i.test(value)) return false; // a short commit id
  return (hasDigit && hasLetter) || (value.length >= 20 && mixedCase && bits >= 3.5);
}
