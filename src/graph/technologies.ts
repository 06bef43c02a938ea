// Technologies a work report shows were adopted, though nobody wrote "decided": the instrument
// of the work ("using fl_chart", "via Mangum"), a stack joined by "+" ("Prometheus + Grafana"),
// a proper name of several words ("AWS WAF v2"), what was added or set up ("Added PgBouncer").
// Read from the shape of the words (capitals, CamelCase, identifiers), not from a list of products.

/**
 * Words of every software session that never name a chosen tool: protocols, formats, hardware,
 * log levels, HTTP verbs, sentence openers and report labels. Kept free of any one session's
 * vocabulary; counted things and work names are told apart by their place, not listed here.
 */
const GENERIC = new Set(
  'API APIs UI CLI CI CD DB SQL HTTP HTTPS JSON CSV URL URLs IP ID IDs PR PRs CPU GPU RAM OS TODO README OK FATAL ERROR WARN INFO DEBUG NOTE I A The This That These Those It We You Our My New Old All Each Every Some Added Completed Fixed Created Updated Done None True False Null NaN Undefined GET POST PUT PATCH DELETE HEAD OPTIONS'.split(
    ' ',
  ),
);
/** Nouns that follow a technology's name: "pedometer package", "image crate". */
const KIND_AFTER = /^(?:package|library|lib|crate|module|plugin|gem|framework|sdk|toolkit|extension|operator|controller|driver|client)$/i;

/** "DAUChart component", "createOrder mutation": a name followed by its kind is something built, not a tool. */
const ARTIFACT_KIND =
  /^(?:component|components|type|types|model|models|mutation|subscription|query|resolver|reducer|middleware|widget|listener|job|worker|migration|class|function|method|hook|provider|screen|page|view|endpoint|route|table|field|test|tests|script|file|section|struct|interface|enum|constant|variable|helper|handler|command)$/i;

const CAMEL = /^(?:[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[a-z]+[A-Z][A-Za-z0-9]*|[A-Z]{2,}[a-z][A-Za-z0-9]*)$/;
const ACRONYM = /^[A-Z][A-Z0-9]{1,}(?:s)?$/;
const CAPITALISED = /^[A-Z][a-z][a-z0-9]*$/;
const VERSION = /^v?\d+(?:\.\d+)+[\w.-]*$|^v\d+$/;
const IDENTIFIER = /^[A-Za-z][\w]*[_.][\w.]*[A-Za-z0-9]$|^[a-z][a-z0-9]*-[a-z0-9-]+$/;

/** "client-side", "real-time", "open-source": English compounds, not package names. */
const COMPOUND =
  /^(?:client|server|real|multi|two|three|zero|read|write|open|full|end|long|short|high|low|self|cross|non|pre|post|re|co|built|well|semi|sub|single|double|per|one|all|first|third|top|best|state|case|line|time|run|back|front|opt|in|on|off|out|up|down)-[a-z]+$/;

function strongName(token: string): boolean {
  return !GENERIC.has(token) && (CAMEL.test(token) || ACRONYM.test(token) || (IDENTIFIER.test(token) && !COMPOUND.test(token)));
}

function nameLike(token: string): boolean {
  return !GENERIC.has(token) && (strongName(token) || CAPITALISED.test(token) || VERSION.test(token));
}

function tokens(text: string): string[] {
  return text
    .split(/\s+/)
    .map((t) => t.replace(/^[("'`[]+|[)"'`\],.;:!?]+$/g, ''))
    .filter(Boolean);
}

/** Tokens with a null where a comma or semicolon separates them: a name never spans one. */
function tokensWithBreaks(text: string): (string | null)[] {
  const out: (string | null)[] = [];
  for (const raw of text.split(/\s+/)) {
    const token = raw.replace(/^[("'`[]+|[)"'`\],.;:!?]+$/g, '');
    if (token) out.push(token);
    if (/[,;:]["')\]]*$/.test(raw)) out.push(null);
  }
  return out;
}

/**
 * The leading run of name-like tokens of a phrase ("AWS WAF v2 on CloudFront" -> "AWS WAF v2").
 * `instrument`: the phrase follows "using"/"via", where a plain lower-case word is a name too.
 */
function leadingName(phrase: string, instrument: boolean): string | undefined {
  const words = tokens(phrase);
  let n = 0;
  while (n < words.length && nameLike(words[n])) n++;
  const after = words[n];
  if (after && ARTIFACT_KIND.test(after)) return undefined;
  if (n === 0) {
    // "pedometer package", "slowapi" at the end of a clause: a plain word used as a name.
    const [first, second] = words;
    if (instrument && first && /^[a-z][\w.-]{2,}$/.test(first) && (second === undefined || KIND_AFTER.test(second))) return first;
    return undefined;
  }
  const run = words.slice(0, n);
  while (run.length > 0 && VERSION.test(run[0])) run.shift();
  return run.length > 0 ? run.join(' ') : undefined;
}

/**
 * `instrumentsOnly`: the report is of work still under way ("Working on: App Store submission"),
 * where a name heading the work is what it aims at, and only what it is done with is in use.
 */
export function adoptedTechnologies(content: string, instrumentsOnly = false): string[] {
  const found: string[] = [];
  const add = (name: string | undefined) => {
    if (!name || name.length < 2 || GENERIC.has(name) || CODE_NAME.test(name)) return;
    if (!found.some((f) => f.toLowerCase() === name.toLowerCase())) found.push(name);
  };
  const text = content.replace(/\(\d+\)\s*/g, '');
  // The instrument: "using X", "via X", "with X" (with: only a clear name).
  for (const m of text.matchAll(/\b(using|via|through|powered by|driven by|backed by|built on|based on|on top of|with)\s+([^,;.()—]+)/gi)) {
    const phrase = m[2].trim();
    const words = tokens(phrase);
    const single = words.length === 1 || /^\S+\s+(?:for|to|in|on|and|as)\b/.test(phrase) || KIND_AFTER.test(words[1] ?? '');
    add(leadingName(phrase, m[1].toLowerCase() !== 'with' && single));
  }
  if (instrumentsOnly) return found;
  // A stack: "A + B + C", or a list of names "A, B, C" (not "Product, Order, User models": built things).
  const parts = text
    .split(/\s*\+\s*|,\s*(?:and\s+)?/)
    .map((p) => p.trim())
    .filter(Boolean);
  // One kind word at the end names every part: "Product, Order, User models" are three models.
  if (parts.length >= 2 && parts.every((p) => tokens(p).length <= 5) && !parts.some((p) => ARTIFACT_KIND.test(tokens(p).at(-1) ?? ''))) {
    const names = parts.map((p) => leadingName(p, false));
    if (names.filter(Boolean).length * 3 >= parts.length * 2) names.forEach(add);
  }
  // What was added, installed or set up.
  const setUp = /^(?:added|installed|set up|configured|deployed|integrated|enabled|adopted|introduced|migrated to|moved to|switched to)\s+(.+)$/i.exec(text.trim());
  if (setUp) add(leadingName(setUp[1], true));
  // Proper names of several words, and a strong name that heads the report ("FAISS index for ...").
  const words = tokensWithBreaks(text);
  const isName = (w: string | null | undefined): w is string => typeof w === 'string' && nameLike(w);
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (!isName(word) || VERSION.test(word)) continue;
    let j = i;
    while (isName(words[j + 1])) j++;
    // "Missing NSMotionUsageDescription": what a fix found absent or broken was not chosen.
    if (PROBLEM.test(word)) {
      i = j;
      continue;
    }
    const run = words.slice(i, j + 1) as string[];
    const next = words[j + 1];
    const built = typeof next === 'string' && ARTIFACT_KIND.test(next);
    if (!built && run.length >= 2 && run.some((w) => !VERSION.test(w))) add(run.join(' '));
    // A proper name heading the report: "FAISS index for ANN search", "DataLoader for ...";
    // not one made with an instrument ("WeeklyChart using fl_chart": fl_chart is the choice).
    // A lone acronym before an aside ("EDA — 11 rows missing") names the work done, not a tool.
    else if (!built && !madeWith(next) && i === 0 && j === 0 && /^[A-Z]/.test(word) && strongName(word) && typeof next === 'string' && /^\w/.test(next)) add(word);
    i = j;
  }
  return found;
}

/** "dropDuplicates", "setInterval": a function of the code the work wrote, not a tool it adopted ("jQuery", one letter before its hump, is a tool). */
const CODE_NAME = /^[a-z]{2,}(?:[A-Z][a-z0-9]+)+$/;

/** Words that say a thing is absent or broken. */
const PROBLEM = /^(?:missing|broken|absent|lacking|failing|deprecated|outdated|unused|invalid|wrong|no)$/i;

/** "X using Y": X is what was made, Y what it was made with. */
function madeWith(next: string | null | undefined): boolean {
  return typeof next === 'string' && /^(?:using|via|with|through)$/i.test(next);
}

/** Words that describe a role rather than name a choice: "Riverpod state management" is Riverpod. */
const DESCRIPTOR =
  /^(?:styling|runtime|output|metrics?|management|storage|pattern|strategy|approach|framework|library|package|crate|module|orm|engine|service|layer|backend|frontend|tooling|database|cache|queue|broker)$/i;

/**
 * A choice's name and what it is for: "Python 3.12 runtime" -> Python 3.12 / runtime,
 * "SMOTE oversampling on training only" -> SMOTE / oversampling on training only. A label whose
 * words are all part of the name, or that does not start with one, is returned whole.
 */
export function nameAndRole(label: string): { name: string; role?: string } {
  const words = label.split(/\s+/);
  let n = 0;
  while (n < words.length && nameLike(words[n]) && !(n === 0 && VERSION.test(words[n]))) n++;
  if (n === 0 || n === words.length || !/[A-Z]/.test(words.slice(0, n).join(' '))) return { name: label };
  const rest = words.slice(n);
  if (!rest.every((w) => /^[a-z0-9][\w./-]*$/.test(w))) return { name: label };
  if (rest.length === 1 && !DESCRIPTOR.test(rest[0])) return { name: label };
  return { name: words.slice(0, n).join(' '), role: rest.join(' ') };
}

/** True when a phrase opens with a name ("Pinia stores", "pinia-plugin-persistedstate", "an S3 bucket" is not). */
export function startsWithName(phrase: string): boolean {
  const first = tokens(phrase.replace(/^(?:a|an|the)\s+/i, ''))[0];
  return first !== undefined && (nameLike(first) || /^@?[a-z][\w.-]*[-/.][\w./-]+$/.test(first)) && !/^(?:it|this|that|them)$/i.test(first);
}
