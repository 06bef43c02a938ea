// Inputs no log should be, met without a crash or a hang: pipes and devices refused before they
// are read, overlong lines refused with a clear error, nesting deeper than any stack counted and
// trimmed, fields of the wrong type, a log cut mid-write.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSession } from '../../src/session/session.js';
import { readRawLines } from '../../src/session/line-reader.js';
import { trimSession } from '../../src/trim/trim.js';
import { sessionStats } from '../../src/analyze/session-stats.js';
import { recordTokens } from '../../src/tokens/breakdown.js';
import { jsonText } from '../../src/tokens/json-text.js';
import { countTokens } from '../../src/tokens/counter.js';
import { CmvError } from '../../src/errors.js';
import { refusal } from '../helpers/refusal.js';
import { sessionRecords } from './fixtures.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cmv-hostile-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const toJsonl = (records: unknown[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;

describe('files that are not logs', () => {
  it('refuses a FIFO before opening it (no hang), for reading and for trimming', async () => {
    const fifo = join(dir, 'pipe.jsonl');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    expect((await refusal(openSession(fifo))).code).toBe('BAD_INPUT');
    expect((await refusal(trimSession(fifo))).message).toMatch(/FIFO/);
  });

  it('refuses /dev/zero as a log instead of reading without end', async () => {
    const error = await refusal(openSession('/dev/zero'));
    expect(error.code).toBe('BAD_INPUT');
    expect(error.message).toMatch(/device/);
  });

  it('refuses a line longer than the cap with a clear error, memory bounded', async () => {
    const path = join(dir, 'long.jsonl');
    writeFileSync(path, `{"type":"user"}\n${'x'.repeat(300_000)}\n`);
    const read = async () => {
      for await (const _ of readRawLines(path, { maxLineBytes: 100_000, chunkBytes: 64 * 1024 })) void _;
    };
    const error = await refusal(read());
    expect(error.code).toBe('BAD_INPUT');
    expect(error.message).toMatch(/line 2 .* longer than/);
  });
});

describe('records no client writes', () => {
  const deep = (n: number) => JSON.parse(`${'['.repeat(n)}${']'.repeat(n)}`) as unknown;

  it('writes nesting deeper than JSON.stringify can as the same text, without recursion', () => {
    const value = { a: [1, 'two', null, true, { b: deep(3) }], c: undefined };
    expect(jsonText(value)).toBe(JSON.stringify(value));
    expect(() => JSON.stringify(deep(200_000))).toThrow(RangeError);
    const text = jsonText({ input: deep(200_000) });
    expect(text).toBe(`{"input":${'['.repeat(200_000)}${']'.repeat(200_000)}}`);
  });

  it('counts the tokens of a tool input nested 200,000 deep', () => {
    const record = { type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { deep: deep(200_000) } }] } };
    const counted = recordTokens(true, record, new Map());
    expect(counted.byKind.toolUseInput).toBeGreaterThan(1000);
  });

  it('stats and trims a log with deep nesting, usage as a string and as a number, without a crash', async () => {
    const records = sessionRecords({ turns: 3 }) as Record<string, unknown>[];
    const assistant = records.find((r) => r.type === 'assistant') as { message: Record<string, unknown> };
    assistant.message.usage = 'lots';
    const other = records.filter((r) => r.type === 'assistant')[1] as { message: Record<string, unknown> } | undefined;
    if (other) other.message.usage = 17;
    const text = toJsonl(records).replace('"type":"tool_use"', `"deep":${'['.repeat(100_000)}${']'.repeat(100_000)},"type":"tool_use"`);
    const path = join(dir, 'odd.jsonl');
    writeFileSync(path, text);
    const session = await openSession(path);
    expect(() => sessionStats(session)).not.toThrow();
    const result = await trimSession(path);
    expect(result.verify.ok).toBe(true);
  });

  it('accepts a log cut mid-write (its last line partial) and keeps that line as it is', async () => {
    const text = toJsonl(sessionRecords({ turns: 3 }));
    const path = join(dir, 'live.jsonl');
    const cut = text.slice(0, text.length - 40);
    writeFileSync(path, cut);
    const result = await trimSession(path);
    expect(result.verify.ok).toBe(true);
    expect(result.lines.at(-1)!.toString()).toBe(cut.slice(cut.lastIndexOf('\n') + 1));
  });

  it('counts 1 MB of one letter without a split point in chunks (bounded time), close to an exact count', () => {
    const run = 'q'.repeat(1 << 20);
    const n = countTokens(run);
    // js-tiktoken on 8,192 letters, times 128 chunks: the chunked count is that by construction.
    expect(n).toBe(countTokens('q'.repeat(8192)) * 128);
  });
});

describe('faults the input already had', () => {
  it('are not called a bug of cmv ("please report it" only for faults the trim made)', async () => {
    const { trimToDestination } = await import('../../src/trim/apply.js');
    const records = sessionRecords({ turns: 3 }) as Record<string, unknown>[];
    const assistant = records.find((r) => r.type === 'assistant') as { message: Record<string, unknown> };
    assistant.message.content = 7; // an assistant message without content, as written
    const path = join(dir, 'had-faults.jsonl');
    writeFileSync(path, toJsonl(records));
    const error = await trimToDestination(path, {}, { kind: 'dry-run' }).then(
      () => undefined,
      (e: unknown) => e as CmvError,
    );
    expect(error).toBeInstanceOf(CmvError);
    expect(error!.hint ?? '').not.toMatch(/report/);
    expect(error!.message).toMatch(/already has/);
  });
});
