// Things named in prose that need no sentence structure to recognise: file paths, HTTP
// endpoints and measured values. Paths are returned exactly as written (trailing "/" of a folder
// kept); a word that only looks like a file ("Node.js", "e.g.", "3.12") is not one.

const FILE_EXTENSIONS = new Set(
  (
    'py pyi ipynb js mjs cjs jsx ts tsx mts cts vue svelte astro json jsonl json5 yaml yml toml ini cfg conf env md mdx rst txt csv tsv ' +
    'xml html htm css scss sass less go rs java kt kts scala swift dart rb php c h cc cpp cxx hpp hh cs fs ex exs erl hs ml clj lua jl pl ' +
    'sh bash zsh fish ps1 bat sql prisma graphql gql proto tf tfvars hcl lock gradle plist pbxproj properties dockerfile mk cmake ' +
    'svg png jpg jpeg gif webp pdf log patch diff parquet pkl pt onnx ckpt bin wasm tex bib'
  ).split(' '),
);

/** Files known by name alone. */
const BARE_FILE_NAMES = new Set(
  'Dockerfile Makefile Justfile Procfile Gemfile Rakefile Vagrantfile Jenkinsfile Brewfile README LICENSE CHANGELOG CODEOWNERS .env .gitignore .dockerignore .npmrc .nvmrc .editorconfig .eslintrc .prettierrc .babelrc .gitattributes'.split(
    ' ',
  ),
);

const HTTP_METHOD = /\b(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+(\/[\w/{}:.*-]*)/g;

/**
 * Splits prose into path candidates: whitespace and punctuation that never sits inside a path.
 * Brackets may ("app/[locale]/page.tsx", "app/(marketing)/layout.tsx"), so they are peeled off a
 * candidate's ends only when unbalanced there, and a markdown link splits at its "](".
 */
const SEPARATORS = /[\s,;<>"'`|={}]+|\]\(/;

function peel(token: string): string {
  let t = token;
  for (let i = 0; i < 4; i++) {
    const before = t;
    const first = t[0];
    const closer = first === '(' ? ')' : first === '[' ? ']' : first === '{' ? '}' : undefined;
    if (closer && count(t, first) > count(t, closer)) t = t.slice(1);
    const last = t.slice(-1);
    const opener = last === ')' ? '(' : last === ']' ? '[' : last === '}' ? '{' : undefined;
    if (opener && count(t, last) > count(t, opener)) t = t.slice(0, -1);
    t = t.replace(/(?:'s|[.:!?*_~…]+)$/, '');
    if (t === before) break;
  }
  return t;
}

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}

export function fileMentions(text: string): string[] {
  const found: string[] = [];
  const endpoints = new Set([...text.matchAll(HTTP_METHOD)].map((m) => m[2].replace(/[.,;:]+$/, '')));
  for (const raw of text.split(SEPARATORS)) {
    const token = peel(raw.replace(/^[*_~:]+/, '').replace(/(?:'s|[.:!?*_~…]+)$/, ''));
    if (token.length < 3 || token.length > 240 || endpoints.has(token)) continue;
    if (isPath(token) && !found.includes(token)) found.push(token);
  }
  return found;
}

/** Segments of word characters, with framework route segments ("[locale]", "(group)") allowed. */
const SEGMENT = String.raw`(?:[\w.@+-]|\[[\w.@+-]+\]|\([\w.@+-]+\))`;
const PATH_SHAPE = new RegExp(String.raw`^(?:~\/|\.{1,2}\/|\/)?(?:${SEGMENT}+\/)*${SEGMENT}*\/?$`);

export function isPath(token: string): boolean {
  if (token.includes('://') || token.startsWith('//') || /^[\w.-]+@[\w.-]+$/.test(token)) return false;
  if (!/[A-Za-z]/.test(token)) return false;
  if (token.includes('/')) {
    if (!PATH_SHAPE.test(token)) return false;
    if (token.endsWith('/')) return token.replace(/\/+$/, '').length >= 2 && !/^\/+$/.test(token);
    const last = token.slice(token.lastIndexOf('/') + 1);
    if (hasFileExtension(last) || BARE_FILE_NAMES.has(last)) return true;
    // An absolute or home-relative path without extension: a folder or an executable.
    return /^(?:~\/|\/)[\w.@+-]+\/[\w.@+-]+/.test(token);
  }
  return BARE_FILE_NAMES.has(token) || hasFileExtension(token);
}

function hasFileExtension(name: string): boolean {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return false;
  const stem = name.slice(0, dot);
  const ext = name.slice(dot + 1).toLowerCase();
  if (!FILE_EXTENSIONS.has(ext) || !/[A-Za-z_]/.test(stem)) return false;
  // "Node.js", "Next.js", "Vue.js": a capitalised name with a .js suffix is a technology.
  if (ext === 'js' && /^[A-Z][A-Za-z0-9]*$/.test(stem)) return false;
  return true;
}

export function endpointMentions(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(HTTP_METHOD)) {
    const label = `${m[1]} ${m[2].replace(/[.,;:]+$/, '')}`;
    if (m[2].length > 1 && !found.includes(label)) found.push(label);
  }
  return found;
}

export interface MetricMention {
  name: string;
  value: string;
}

const NUMBER = String.raw`-?\d[\d,]*(?:\.\d+)?\s?(?:%|ms|µs|s|sec|secs|min|mins|h|hrs?|hours?|x|×|[KMGT]B|k|M|req\/s|rps|qps|fps|tokens)?`;
const METRIC_ASSIGN = new RegExp(String.raw`\b([A-Za-z][\w@./-]{0,24})\s?(?:=|:)\s?(${NUMBER}(?:\s?(?:→|->|to)\s?${NUMBER})?)(?![\w/.])`, 'g');
const METRIC_ARROW = new RegExp(String.raw`\b([A-Za-z][\w@-]{1,24}):?\s(${NUMBER}\s?(?:→|->)\s?${NUMBER})`, 'g');
const METRIC_NAMES = String.raw`accuracy|precision|recall|latency|throughput|coverage|error rate|loss|uptime|ctr|p\d{2,3}|mape|rmse|mae|auc|ndcg@\d+|f1|bleu|rouge|perplexity`;
const METRIC_TRAILING = new RegExp(String.raw`\b((?:${METRIC_NAMES}|[A-Z][A-Za-z0-9@]{1,15})(?: score)?)\s(${NUMBER})`, 'gi');
const KNOWN_METRIC = new RegExp(String.raw`^(?:${METRIC_NAMES})(?: score)?$`, 'i');
/** Words that label a report, not a measure ("Fixed: 422 error"). */
const NOT_A_MEASURE =
  /^(?:fixed|completed?|done|added|created|updated|error|errors|issue|found|step|phase|stage|part|version|epoch|day|week|month|year|line|lines|port|id|top|best|v|http|https|python|node|rust|go|java|react|flutter|eks)$/i;

/** "F1=0.89", "MAPE 3.6%", "Response: 800ms → 95ms", "accuracy 91.2%". */
export function metricMentions(text: string): MetricMention[] {
  const found = new Map<string, string>();
  const add = (name: string, value: string) => {
    const clean = value.trim().replace(/[,.]$/, '');
    if (!/\d/.test(clean) || name.length < 2 || NOT_A_MEASURE.test(name)) return;
    found.set(name, clean);
  };
  for (const m of text.matchAll(METRIC_ARROW)) add(m[1], m[2]);
  for (const m of text.matchAll(METRIC_ASSIGN)) if (!found.has(m[1]) && /[%→]|\d\s?(?:ms|s|x|[KMGT]B)\b|->|\d\.\d/.test(m[2])) add(m[1], m[2]);
  for (const m of text.matchAll(METRIC_TRAILING)) if (!found.has(m[1]) && (/%/.test(m[2]) || (KNOWN_METRIC.test(m[1]) && /\d\.\d/.test(m[2])))) add(m[1], m[2]);
  return [...found].map(([name, value]) => ({ name, value }));
}
