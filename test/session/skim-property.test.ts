// The skim must equal JSON.parse on every line it reads, or leave the line to JSON.parse: a
// property test over mutated real lines (control bytes, NUL runs, bad escapes, repeated and
// escaped keys, wrong types, deep nesting, cuts). Real lines come from ../shared when present and
// from sample-sessions/ always, so the test runs in CI too.

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLine, toEntry, type SessionEntry } from '../../src/session/entry.js';
import { skimEntry, withTopLevelValues, withoutTopLevelField } from '../../src/session/skim.js';
import { CORPUS_DIR, RECENT_CORPUS_DIR, hasShared, sampleFiles } from '../helpers/corpus.js';
import { mutateLine, seededRandom } from '../../bench/mutate.js';

function plainValue(bytes: Buffer): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(bytes.toString('utf8')) };
  } catch {
    return { ok: false };
  }
}

/** Payload sizes are estimates (the skim measures long strings in bytes): everything else must be equal. */
function shape(entry: SessionEntry | undefined): string | undefined {
  if (!entry) return undefined;
  const { toolUseResultChars, blocks, ...rest } = entry;
  return canonical({ ...rest, hasToolUseResult: toolUseResultChars > 0, blocks: blocks.map(({ chars: _, ...block }) => block) });
}

/** JSON with sorted keys and no undefined fields: two entries built in a different order compare equal. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v)
            .filter(([, x]) => x !== undefined)
            .sort(([a], [b]) => (a < b ? -1 : 1)),
        )
      : v,
  );
}

function jsonlFiles(dir: string): string[] {
  return hasShared(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.jsonl'))
        .map((f) => join(dir, f))
    : [];
}

const files = [...jsonlFiles(CORPUS_DIR), ...jsonlFiles(RECENT_CORPUS_DIR), ...sampleFiles()];
const realLines = files.flatMap((file) =>
  readFileSync(file)
    .toString('latin1')
    .split('\n')
    .filter((text) => text.length > 40)
    .map((text) => Buffer.from(text, 'latin1')),
);

/** Differences between the skim and JSON.parse on one line, as messages (empty when they agree). */
function differences(bytes: Buffer): string[] {
  const found: string[] = [];
  const plain = plainValue(bytes);
  const skimmed = skimEntry(bytes, 3);
  if (skimmed) {
    if (!plain.ok) found.push('skim read a line JSON.parse refuses');
    else if (shape(skimmed) !== shape(toEntry(plain.value, 3, 0))) found.push('skim read the line differently');
  }
  const chainOnly = skimEntry(bytes, 3, true);
  if (chainOnly && !plain.ok) found.push('chain-only skim read a line JSON.parse refuses');
  const parsed = parseLine(bytes, 3);
  const plainEntry = plain.ok ? toEntry(plain.value, 3, 0) : undefined;
  if (parsed.status === 'entry' && !plainEntry) found.push('parseLine gave an entry JSON.parse does not');
  if (plainEntry && parsed.status !== 'entry') found.push(`parseLine said ${parsed.status} for a record JSON.parse reads`);
  if (plainEntry && parsed.status === 'entry' && shape(parsed.entries[0]) !== shape(plainEntry)) found.push('parseLine differs from JSON.parse');
  // JSON.stringify overflows its stack on nesting JSON.parse reads: such edits are compared by acceptance only.
  const deep = /[[{]{2000}/.test(bytes.toString('latin1'));
  const slim = withoutTopLevelField(bytes, 'toolUseResult');
  if (slim && !plain.ok) found.push('withoutTopLevelField edited a line JSON.parse refuses');
  if (slim && plain.ok && !deep) {
    const { toolUseResult: _, ...rest } = plain.value as Record<string, unknown>;
    if (JSON.stringify(JSON.parse(slim.toString('utf8'))) !== JSON.stringify(rest)) found.push('withoutTopLevelField changed more than the field');
  }
  const moved = withTopLevelValues(bytes, new Map([['parentUuid', '"p-1"']]));
  if (moved && !plain.ok) found.push('withTopLevelValues edited a line JSON.parse refuses');
  if (moved && plain.ok && !deep) {
    const value = JSON.parse(moved.toString('utf8')) as Record<string, unknown>;
    if (value.parentUuid !== 'p-1' || JSON.stringify({ ...value, parentUuid: 0 }) !== JSON.stringify({ ...(plain.value as object), parentUuid: 0 })) {
      found.push('withTopLevelValues changed more than the field');
    }
  }
  return found;
}

describe('the skim against JSON.parse', () => {
  it('has real lines to mutate (sample sessions at least)', () => {
    expect(realLines.length).toBeGreaterThan(50);
  });

  it('agrees on 6,000 mutated real lines: 0 differences', () => {
    const random = seededRandom(15);
    const seen: Record<string, number> = {};
    const wrong: string[] = [];
    let refused = 0;
    for (let n = 0; n < 6000; n++) {
      const source = realLines[Math.floor(random() * realLines.length)];
      const { name, bytes } = mutateLine(random, source);
      seen[name] = (seen[name] ?? 0) + 1;
      if (!plainValue(bytes).ok) refused++;
      for (const message of differences(bytes)) if (wrong.length < 20) wrong.push(`${name}: ${message}: ${bytes.toString('latin1').slice(0, 160)}`);
    }
    expect(wrong).toEqual([]);
    // The mutations must actually produce lines JSON.parse refuses, or the test proves nothing.
    expect(refused).toBeGreaterThan(1000);
    expect(Object.keys(seen).length).toBeGreaterThan(10);
  });

  it('leaves each hostile shape to JSON.parse, or reads it as JSON.parse does', () => {
    const text = 'x'.repeat(3000);
    const base = { type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: [{ type: 'text', text }] } };
    const line = JSON.stringify(base);
    const cases = [
      line.replace('"u1"', '"u\u0001"'), // raw control byte in a string
      line.replace('xxxx', 'xx\0\0\0\0\0xx'), // NUL run
      line.replace('xxxx', 'x\\qx'), // bad escape
      line.replace('xxxx', 'x\\u12gx'),
      line.replace('"type":"user"', '"type":"user","type":"summary"'), // repeated key: last wins
      line.replace('"type":"user"', '"ty\\u0070e":"summary","type":"user"'), // escaped key
      line.replace('"role":"user"', '"role":"user","usage":"12"'),
      line.replace('"parentUuid":null', `"parentUuid":null,"deep":${'['.repeat(50000)}${']'.repeat(50000)}`),
      line.replace('"parentUuid":null', '"parentUuid":null,"x":{"a":1,}'), // broken nesting where the skim does not look
      line.replace('"parentUuid":null', '"parentUuid":null,"x":[1 2]'),
      line.replace('"text":"', '"text":1,"t":"'),
    ];
    for (const hostile of cases) expect(differences(Buffer.from(hostile)), hostile.slice(0, 120)).toEqual([]);
    // A repeated key is read as JSON.parse reads it: the last one.
    expect(parseLine(Buffer.from(cases[4]), 0).entries[0].type).toBe('summary');
    expect(parseLine(Buffer.from(cases[5]), 0).entries[0].type).toBe('user');
    expect(parseLine(Buffer.from(cases[2]), 0).status).toBe('malformed');
  });
  it('finds a raw control byte or a bad escape at any place of a long line, however the line lies in memory', () => {
    // The check reads aligned 4-byte words where it can: each byte of a word, each alignment.
    const base = JSON.stringify({ type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: [{ type: 'text', text: 'ab'.repeat(60) }] } });
    const textAt = base.indexOf('abab');
    const wrong: string[] = [];
    for (let shift = 0; shift < 4; shift++) {
      for (let at = textAt; at < textAt + 24; at++) {
        for (const [name, inserted, refused] of [
          ['control byte', '\u0001', true],
          ['bad escape', '\\q', true],
          ['short \\u', '\\u0z', true],
          ['good escape', '\\n', false],
          ['good \\u', '\\u00e9', false],
          ['escaped backslash', '\\\\', false],
        ] as const) {
          const text = base.slice(0, at) + inserted + base.slice(at);
          const inMemory = Buffer.alloc(text.length + 8);
          const bytes = inMemory.subarray(shift, shift + Buffer.byteLength(text));
          bytes.write(text);
          const skimmed = skimEntry(bytes, 0);
          if (plainValue(bytes).ok === refused) wrong.push(`${name} at ${at}: JSON.parse disagrees with the case`);
          if (refused && skimmed !== undefined) wrong.push(`${name} at ${at}, shift ${shift}: skimmed`);
          if (!refused && shape(skimmed) !== shape(parseLine(bytes, 0).entries[0])) wrong.push(`${name} at ${at}, shift ${shift}: read differently`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
