// Numbers as the reports print them: nouns agree with their counts, money carries its sign
// before the dollar, a reduction that rounds to nothing has no sign.

import { describe, expect, it } from 'vitest';
import { formatMoney, formatReduction, plural } from '../../src/text/quantities.js';
import { forceColorFor } from '../../src/cli/colour.js';

describe('plural', () => {
  it('agrees with the count', () => {
    expect(plural(1, 'prompt')).toBe('1 prompt');
    expect(plural(0, 'prompt')).toBe('0 prompts');
    expect(plural(3, 'edge')).toBe('3 edges');
    expect(plural(1, 'edge')).toBe('1 edge');
    expect(plural(1024, 'tool call')).toBe('1,024 tool calls');
    expect(plural(2, 'entry')).toBe('2 entries');
    expect(plural(2, 'batch')).toBe('2 batches');
  });
});

describe('formatMoney', () => {
  it('puts the sign before the dollar', () => {
    expect(formatMoney(-0.308)).toBe('-$0.308');
    expect(formatMoney(-0.025)).toBe('-$0.025');
    expect(formatMoney(-0.003)).toBe('-$0.0030');
    expect(formatMoney(12.5)).toBe('$12.50');
    expect(formatMoney(-0.00001)).toBe('$0');
  });
});

describe('formatReduction', () => {
  it('shows a reduction as a minus, a growth as a plus, and nothing as unsigned', () => {
    expect(formatReduction(0.25)).toBe('-25%');
    expect(formatReduction(-0.031)).toBe('+3.1%');
    expect(formatReduction(0)).toBe('0.0%');
    expect(formatReduction(-0.0001)).toBe('0.0%');
  });
});

describe('colour', () => {
  it('lets --color win over NO_COLOR and --no-color win over FORCE_COLOR; the last flag wins', () => {
    expect(forceColorFor(['--color', 'stats'], { NO_COLOR: '1' })).toBe('1');
    expect(forceColorFor(['stats', '--no-color'], { FORCE_COLOR: '1' })).toBe('0');
    expect(forceColorFor(['--color', 'stats', '--no-color'], {})).toBe('0');
    expect(forceColorFor(['stats'], { NO_COLOR: '1', FORCE_COLOR: '1' })).toBe('0');
    expect(forceColorFor(['stats'], { NO_COLOR: '' })).toBeUndefined();
    expect(forceColorFor(['stats'], { TERM: 'dumb' })).toBe('0');
    expect(forceColorFor(['stats', '--', '--color'], { NO_COLOR: '1' })).toBe('0');
  });
});
