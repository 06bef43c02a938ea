// Mutations of real log lines for the skim property test and the fuzz bench: the damage a log
// meets in the wild (cut writes, NUL runs from a crash, stray control bytes) and the shapes a
// hand-made hostile line takes (bad escapes, repeated or escaped keys, deep nesting, wrong types).
// Plain JS so both the tests (src) and the bench (dist) can use it. Deterministic given the seed.

/** A small seeded PRNG (mulberry32): the same seed gives the same mutations on every machine. */
export function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = (random, n) => Math.floor(random() * n);

function splice(bytes, at, remove, insert) {
  return Buffer.concat([bytes.subarray(0, at), Buffer.from(insert, 'latin1'), bytes.subarray(at + remove)]);
}

/** Index of a random occurrence of `needle` in `bytes`, or -1. */
function randomIndexOf(random, bytes, needle) {
  const found = [];
  for (let i = bytes.indexOf(needle); i >= 0 && found.length < 64; i = bytes.indexOf(needle, i + 1)) found.push(i);
  return found.length ? found[pick(random, found.length)] : -1;
}

/** Each mutation: a name and a function from a line's bytes to new bytes. */
export const MUTATIONS = [
  ['control-byte', (r, b) => splice(b, pick(r, b.length + 1), 0, String.fromCharCode(pick(r, 32)))],
  ['nul-run', (r, b) => splice(b, pick(r, b.length + 1), 0, '\0'.repeat(1 + pick(r, 4096)))],
  [
    'bad-escape',
    (r, b) => {
      const at = randomIndexOf(r, b, '":"');
      const bad = ['\\q', '\\x41', '\\u12g4', '\\U0041', '\\', '\\\\\\z', '\\u00'][pick(r, 7)];
      return splice(b, at >= 0 ? at + 3 : pick(r, b.length + 1), 0, bad);
    },
  ],
  [
    'good-escape',
    (r, b) => {
      const at = randomIndexOf(r, b, '":"');
      return splice(b, at >= 0 ? at + 3 : pick(r, b.length + 1), 0, ['\\\\q', '\\u0041', '\\"', '\\\\\\\\n', '\\ud800'][pick(r, 5)]);
    },
  ],
  [
    'repeat-key',
    (r, b) => {
      const fields = [
        '"type":"summary"',
        '"type":"user"',
        '"parentUuid":null',
        '"uuid":"x-1"',
        '"isCompactSummary":true',
        '"isSidechain":true',
        '"message":{"role":"user","content":"hi"}',
        '"message":{"content":[{"type":"text","text":" "}]}',
        '"content":"x"',
        '"text":""',
        '"id":"dup"',
        '"usage":{"input_tokens":1}',
      ];
      const at = randomIndexOf(r, b, ',"');
      return splice(b, at >= 0 ? at : 1, 0, (at >= 0 ? ',' : '') + fields[pick(r, fields.length)] + (at >= 0 ? '' : ','));
    },
  ],
  [
    'escape-key',
    (r, b) => {
      const keys = ['"type"', '"uuid"', '"parentUuid"', '"text"', '"content"', '"message"', '"isCompactSummary"', '"tool_use_id"'];
      const key = keys[pick(r, keys.length)];
      const at = randomIndexOf(r, b, key + ':');
      if (at < 0) return b;
      const inner = key.slice(1, -1);
      const k = pick(r, inner.length);
      const escaped = `"${inner.slice(0, k)}\\u00${inner.charCodeAt(k).toString(16)}${inner.slice(k + 1)}"`;
      return splice(b, at, key.length, escaped);
    },
  ],
  [
    'wrong-type',
    (r, b) => {
      const targets = [
        ['"usage":{', '"usage":"12",', '"usage":7,'],
        ['"content":[', '"content":{},"x":[', '"content":5,"x":['],
        ['"text":"', '"text":1,"x":"'],
        ['"message":{', '"message":"m","x":{'],
        ['"input":{', '"input":[],"x":{'],
      ];
      const [needle, ...replacements] = targets[pick(r, targets.length)];
      const at = randomIndexOf(r, b, needle);
      return at < 0 ? b : splice(b, at, needle.length, replacements[pick(r, replacements.length)]);
    },
  ],
  [
    'deep-nesting',
    (r, b) => {
      const depth = 1 + pick(r, 20000);
      const at = randomIndexOf(r, b, '"input":{');
      const nest = '['.repeat(depth) + ']'.repeat(depth);
      if (at < 0) return splice(b, 1, 0, `"deep":${nest},`);
      return splice(b, at + 9, 0, `"deep":${nest}${b[at + 9] === 0x7d ? '' : ','}`);
    },
  ],
  ['cut', (r, b) => b.subarray(0, pick(r, b.length))],
  ['delete-byte', (r, b) => splice(b, pick(r, b.length), 1, '')],
  ['flip-byte', (r, b) => splice(b, pick(r, b.length), 1, String.fromCharCode(pick(r, 256)))],
  ['structural-byte', (r, b) => splice(b, pick(r, b.length), pick(r, 2), '{}[],:"'[pick(r, 7)])],
  [
    'duplicate-span',
    (r, b) => {
      const at = pick(r, b.length);
      const len = pick(r, Math.min(200, b.length - at) + 1);
      return splice(b, at, 0, b.subarray(at, at + len).toString('latin1'));
    },
  ],
  ['glue', (r, b) => Buffer.concat([b, b])],
];

/** One mutated copy of `bytes`: returns the mutation's name and the new bytes. */
export function mutateLine(random, bytes) {
  const [name, mutate] = MUTATIONS[pick(random, MUTATIONS.length)];
  return { name, bytes: mutate(random, bytes) };
}
