import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ESTIMATE_MIN_CHARS, estimateTokens, estimatingCounter, StrippedRecordCounter } from '../../src/tokens/estimate.js';
import { countTokens } from '../../src/tokens/counter.js';
import { recordTokens } from '../../src/tokens/breakdown.js';
import type { JsonObject } from '../../src/session/payload.js';

// Real texts of varied kinds: prose with code (the README), TypeScript source, a JSON lockfile.
const ROOT = join(__dirname, '..', '..');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const source = readFileSync(join(ROOT, 'src', 'trim', 'trim.ts'), 'utf8');
const lockfile = readFileSync(join(ROOT, 'package-lock.json'), 'utf8').slice(0, 60_000);

const names = { get: (id: string) => (id === 'read-1' ? 'Read' : undefined) };

describe('estimateTokens', () => {
  it('counts a text under the sampling length exactly', () => {
    const text = readme.slice(0, ESTIMATE_MIN_CHARS - 1);
    expect(estimateTokens(text)).toBe(countTokens(text));
  });

  it.each([
    ['prose', readme],
    ['source', source],
    ['JSON', lockfile],
  ])('estimates a long %s text within 5%% of its count, the same each time', (_kind, text) => {
    const exact = countTokens(text);
    const estimate = estimateTokens(text);
    expect(Math.abs(estimate - exact) / exact).toBeLessThan(0.05);
    expect(estimateTokens(text)).toBe(estimate);
  });
});

describe('StrippedRecordCounter', () => {
  const longText = source.slice(0, 6000);
  const longResult = readme.slice(0, 9000);
  const original = (): JsonObject => ({
    type: 'user',
    message: {
      role: 'user',
      content: [
        { type: 'text', text: longText },
        { type: 'tool_result', tool_use_id: 'read-1', content: longResult },
      ],
    },
  });

  it('counts a kept long text the same on both sides, once, and short texts exactly', () => {
    const counter = new StrippedRecordCounter(false, names);
    const record = original();
    const before = counter.before(record);
    // The strip stubs the tool result in place and keeps the text.
    ((record.message as JsonObject).content as JsonObject[])[1].content = '[stub: 9000 characters]';
    const counted = counter.after(record, before);
    const stub = countTokens('[stub: 9000 characters]');
    expect(counted.after).toEqual(recordTokens(false, record, names, estimatingCounter));
    expect(counted.after!.byTool).toEqual({ Read: stub });
    expect(counted.before.byKind.userText).toBe(estimateTokens(longText));
    expect(counted.after!.byKind.userText).toBe(estimateTokens(longText));
    expect(counted.before.byKind.toolResult).toBe(estimateTokens(longResult));
    expect(counted.before.byTool).toEqual({ Read: estimateTokens(longResult) });
    expect(counted.before.total - counted.after!.total).toBe(estimateTokens(longResult) - stub);
  });

  it('counts a record the strip leaves whole as recordTokens does with the estimating counter', () => {
    const counter = new StrippedRecordCounter(false, names);
    const record = original();
    const counted = counter.after(record, counter.before(record));
    expect(counted.before).toEqual(recordTokens(false, original(), names, estimatingCounter));
    expect(counted.after).toEqual(counted.before);
  });

  it('estimates long texts within 5% of the exact count of the record', () => {
    const estimated = recordTokens(false, original(), names, estimatingCounter).total;
    const exact = recordTokens(false, original(), names).total;
    expect(Math.abs(estimated - exact) / exact).toBeLessThan(0.05);
  });

  it('estimates the whole of a record the strip empties', () => {
    const counter = new StrippedRecordCounter(false, names);
    const counted = counter.after(null, counter.before(original()));
    expect(counted.after).toBeNull();
    expect(counted.before.total).toBe(estimateTokens(longText) + estimateTokens(longResult));
  });
});
