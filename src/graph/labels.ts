// Labels that keep their meaning: whitespace and markdown go, paths, versions and code stay whole.
// Also the word-level comparison the validator uses to tell two labels apart.

const STOPWORDS = new Set(
  'the and for with into from that this these those then than now also just only all any some our your their its are was were has have had not but via per out off who what when where which will would should could can may might let lets use used using'.split(
    ' ',
  ),
);

/** Words whose presence at the end of a label does not make it a different thing ("Prisma ORM" is Prisma). */
const CATEGORY_WORDS = new Set(
  'orm framework library lib package crate module runtime tool tools service pattern strategy approach method technique engine database db language stack styling style support integration setup'.split(
    ' ',
  ),
);

/** Markdown emphasis, inline code ticks and link syntax removed; text kept. */
export function plainText(text: string): string {
  return (
    text
      .replace(/\[([^\]]+)\]\((?:[^)]+)\)/g, '$1')
      // Bold only: "__" is part of names ("__init__.py") far more often than emphasis.
      .replace(/\*\*/g, '')
      .replace(/`+/g, '')
      .replace(/[ \t]+/g, ' ')
  );
}

const OPENERS: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

/** One-line label: trimmed, whitespace collapsed, dangling punctuation and unbalanced brackets removed. */
export function normaliseLabel(raw: string): string {
  let label = plainText(raw).replace(/\s+/g, ' ').trim();
  // The project folder itself, as a path relative to it.
  if (label === '.' || label === './') return '.';
  for (let i = 0; i < 4; i++) {
    const before = label;
    // A leading "." stays when a name follows (".github/", ".env"): dotfiles are paths.
    // A leading "-" stays when a word follows ("--delimiter"): only a bullet's dash goes.
    label = label.replace(/^(?:[\s"'“”‘’([{:;,–—>*#]|-+(?=\s|$)|\.(?![\w/]))+/, '').replace(/[\s:;,\-–—]+$/, '');
    // A closing quote stays when it closes one: 'expect "entire.log"'.
    if (/["'”’]$/.test(label) && count(label, label.slice(-1)) % 2 === 1 && !/[“‘]/.test(label)) label = label.slice(0, -1);
    // A trailing period ends a sentence (an ellipsis "..." stays).
    label = label.replace(/(?<!\.)\.$/, '').replace(/\s+$/, '');
    const last = label.slice(-1);
    if (OPENERS[last] && count(label, OPENERS[last]) < count(label, last)) label = label.slice(0, -1);
    const first = label[0];
    if (first && '([{'.includes(first)) {
      const closer = first === '(' ? ')' : first === '[' ? ']' : '}';
      if (count(label, closer) < count(label, first)) label = label.slice(1);
    }
    if (label === before) break;
  }
  for (const [closer, opener] of Object.entries(OPENERS)) {
    if (count(label, opener) > count(label, closer)) label = label.slice(0, label.lastIndexOf(opener)).trim();
  }
  return label.replace(/[\s,;:–—-]+$/, '');
}

function count(text: string, char: string): number {
  let n = 0;
  for (const c of text) if (c === char) n++;
  return n;
}

/** The key two labels of one type share when they name the same thing. */
export function labelKey(label: string): string {
  const words = label.toLowerCase().replace(/\s+/g, ' ').trim().split(' ');
  while (words.length > 1 && CATEGORY_WORDS.has(words[words.length - 1])) words.pop();
  return words.join(' ');
}

const WORD = /[\p{L}\p{N}_]{3,}/gu;

/** Content words (3+ letters, no stopwords), lowercased. */
export function contentWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.toLowerCase().matchAll(WORD)) if (!STOPWORDS.has(m[0])) out.add(stem(m[0]));
  return out;
}

/** A light stem so "charts"/"chart", "fixed"/"fix", "tests"/"testing" compare equal. */
function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ing')) return undouble(word.slice(0, -3));
  if (word.length > 4 && word.endsWith('ed')) return undouble(word.slice(0, -2));
  if (word.length > 3 && word.endsWith('es') && /(?:ch|sh|x|ss)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** "committ" -> "commit", "runn" -> "run". */
function undouble(word: string): string {
  return /([bdglmnprt])\1$/.test(word) ? word.slice(0, -1) : word;
}

/** Share of the smaller label's content words found in the other (0 when either has none). */
export function wordOverlap(a: string, b: string): number {
  const wa = contentWords(a);
  const wb = contentWords(b);
  if (wa.size === 0 || wb.size === 0) return 0;
  const [small, large] = wa.size <= wb.size ? [wa, wb] : [wb, wa];
  let shared = 0;
  for (const w of small) if (large.has(w)) shared++;
  return shared / small.size;
}

/** True when two labels of one type name the same thing: same key, or the same content words. */
export function sameThing(a: string, b: string): boolean {
  const ka = labelKey(a);
  const kb = labelKey(b);
  if (ka === kb) return true;
  const wa = contentWords(ka);
  const wb = contentWords(kb);
  if (wa.size === 0 || wb.size === 0 || wa.size !== wb.size) return false;
  for (const w of wa) if (!wb.has(w)) return false;
  // Same words, but numbers differ ("Python 3.11" vs "Python 3.12"): different things.
  return numbersOf(ka) === numbersOf(kb);
}

function numbersOf(text: string): string {
  return (text.match(/\d+(?:\.\d+)*/g) ?? []).join(',');
}

/**
 * Sentences of a message: code blocks dropped, one per line or per sentence end. A period
 * inside a path, a version or a name ("api/main.py", "3.12", "Node.js") never ends one.
 */
export function sentences(text: string): string[] {
  const out: string[] = [];
  const withoutCode = text.replace(/```[\s\S]*?(?:```|$)/g, '\n');
  for (let line of withoutCode.split(/\r?\n/)) {
    line = line.replace(/^\s*(?:#{1,6}\s+|>\s*|[-*+•]\s+|\d{1,2}[.)]\s+|\[[ xX]\]\s+)+/, '').trim();
    if (line === '' || /^\|.*\|$/.test(line)) continue;
    for (const part of line.split(/(?<![^\w](?:e\.g|i\.e|etc|vs|cf|approx|incl|eg|ie)\.)(?<=[.!?])\s+(?=[A-Z0-9`"'([*])/i)) {
      const sentence = part.trim();
      if (sentence !== '') out.push(sentence);
    }
  }
  return out;
}

/** The first `max` words of a text, cut back to the last clause boundary when there is one. */
export function clipWords(text: string, max: number): string {
  const words = text.split(/\s+/).filter(Boolean);
  if (words.length <= max) return text.trim();
  const head = words.slice(0, max).join(' ');
  const boundary = Math.max(head.lastIndexOf(', '), head.lastIndexOf('; '), head.lastIndexOf(' — '), head.lastIndexOf(' - '));
  const cut = (boundary > head.length / 2 ? head.slice(0, boundary) : head).trim();
  // A clip never ends on a word that needs what was cut ("... and the bindings in").
  const kept = cut.split(/\s+/);
  while (kept.length > 1 && DANGLING.has(kept[kept.length - 1].toLowerCase())) kept.pop();
  return kept.join(' ');
}

const DANGLING = new Set('a an the to of for with and or in on at by from as is are was were that which when if into via than then but so our your my their its'.split(' '));

export function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** Words a telegraphic label does without: articles, possessives, auxiliaries, fillers. */
const FILLER = new Set('a an the our my your their its is are was were this these those some very really just also currently actually basically please existing now'.split(' '));

/**
 * A label in telegraphic style, for the resume block: "Add the refresh tokens to our API" ->
 * "Add refresh tokens to API". Only whole plain words go; paths, versions, code and names stay as
 * written, negations stay, and a label of fillers only is returned as it was.
 */
export function denseLabel(label: string): string {
  const words = label.split(/\s+/).filter(Boolean);
  const kept = words.filter((w, i) => {
    const bare = w.toLowerCase();
    if (!FILLER.has(bare)) return true;
    // "A" or "THE" in capitals is a name ("Plan A"); a filler last in a label may be its object ("use this").
    if (w !== bare && w !== w[0].toUpperCase() + bare.slice(1)) return true;
    if (w === 'A') return true;
    return i === words.length - 1 && /^(?:this|that|these|those)$/.test(bare);
  });
  const out = kept.join(' ');
  return contentWords(out).size > 0 || /\d/.test(out) ? out : label;
}
