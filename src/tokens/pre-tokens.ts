// The o200k pre-tokenizer's split, found without the regular expression where the text is ASCII:
// its Unicode-class pattern and one match array per piece took half of all counting time. Each
// ASCII decision mirrors the pattern's alternation (first branch that matches, with backtracking);
// wherever a character it must classify is not ASCII, the caller runs the pattern for that piece.
//
// The pattern (o200k_base, as js-tiktoken ships it), branch by branch:
//   1  [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//   2  [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//   3  \p{N}{1,3}
//   4   ?[^\s\p{L}\p{N}]+[\r\n/]*
//   5  \s*[\r\n]+
//   6  \s+(?!\S)
//   7  \s+

const NOT_ASCII = 0;
const UPPER = 1;
const LOWER = 2;
const DIGIT = 3;
/** \r and \n. */
const NEWLINE = 4;
/** Whitespace other than \r and \n: space, \t, \v, \f. */
const SPACE = 5;
/** Neither letter, digit nor whitespace: punctuation, symbols, control characters. */
const OTHER = 6;
const END = 7;

const CLASS = new Uint8Array(128).fill(OTHER);
for (let c = 65; c <= 90; c++) CLASS[c] = UPPER;
for (let c = 97; c <= 122; c++) CLASS[c] = LOWER;
for (let c = 48; c <= 57; c++) CLASS[c] = DIGIT;
CLASS[10] = NEWLINE;
CLASS[13] = NEWLINE;
for (const c of [9, 11, 12, 32]) CLASS[c] = SPACE;

/** The UTF-16 unit at `i`, or -1 past the end (reading past it in optimised code deoptimises it: "out of bounds"). */
function codeAt(text: string, i: number): number {
  return i < text.length ? text.charCodeAt(i) : -1;
}

function classAt(text: string, i: number): number {
  if (i >= text.length) return END;
  const code = text.charCodeAt(i);
  return code < 128 ? CLASS[code] : NOT_ASCII;
}

/** Letters from `from` (branches 1 and 2, the prefix already taken): an upper run, a lower run, a contraction. */
function lettersEnd(text: string, from: number): number {
  let at = from;
  let c = classAt(text, at);
  while (c === UPPER) c = classAt(text, ++at);
  // Branch 1 when lower case letters follow (an upper run may lead them: "HTMLParser"); branch 2 otherwise.
  while (c === LOWER) c = classAt(text, ++at);
  if (c === NOT_ASCII) return -1; // a letter or mark outside ASCII may continue the run
  if (codeAt(text, at) !== 39) return at;
  const a = codeAt(text, at + 1) | 0x20; // lower case (a non-letter matches nothing below)
  if (a === 0x73 || a === 0x74 || a === 0x6d || a === 0x64) return at + 2; // 's 't 'm 'd
  const b = codeAt(text, at + 2) | 0x20;
  if ((a === 0x72 && b === 0x65) || (a === 0x76 && b === 0x65) || (a === 0x6c && b === 0x6c)) return at + 3; // 're 've 'll
  return at;
}

/**
 * End of the pre-token that starts at `start`, or -1 when deciding it needs a character that is not
 * ASCII (then the pattern decides that piece).
 */
export function asciiPieceEnd(text: string, start: number): number {
  const c = classAt(text, start);
  if (c === UPPER || c === LOWER) return lettersEnd(text, start);
  if (c === DIGIT) {
    let at = start + 1;
    while (at < start + 3) {
      const d = classAt(text, at);
      if (d === NOT_ASCII) return -1; // a digit outside ASCII continues the run
      if (d !== DIGIT) break;
      at++;
    }
    return at;
  }
  if (c === NOT_ASCII) return -1;
  if (c === SPACE || c === OTHER) {
    const next = classAt(text, start + 1);
    if (next === NOT_ASCII) return -1;
    // Branches 1 and 2 with their one-character prefix.
    if (next === UPPER || next === LOWER) return lettersEnd(text, start + 1);
    // Branch 4: an optional space, then symbols, then any line breaks.
    const symbols = c === OTHER ? start : text.charCodeAt(start) === 32 && next === OTHER ? start + 1 : -1;
    if (symbols >= 0) {
      let at = symbols;
      let d = c === OTHER ? c : next;
      while (d === OTHER) d = classAt(text, ++at);
      if (d === NOT_ASCII) return -1;
      for (let code = codeAt(text, at); code === 10 || code === 13 || code === 47; code = codeAt(text, ++at));
      return at;
    }
  }
  // Whitespace: up to the last line break of the run (5), else all of the run but its last
  // character before what follows (6), or one character (7).
  let at = start;
  let lastBreak = -1;
  let d = c;
  while (d === SPACE || d === NEWLINE) {
    if (d === NEWLINE) lastBreak = at;
    d = classAt(text, ++at);
  }
  if (d === NOT_ASCII) return -1; // whitespace outside ASCII (a no-break space) may continue the run
  if (lastBreak >= 0) return lastBreak + 1;
  if (d === END) return at;
  return at - start >= 2 ? at - 1 : start + 1;
}
