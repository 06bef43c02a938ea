// The V8 settings cmv runs with: each flag is one this Node accepts (setFlagsFromString ignores
// one it does not know, so a renamed flag would silently stop working), and the CLI sets them
// before it loads anything else.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { V8_RULES } from '../../src/v8-tuning.js';

const ROOT = resolve(__dirname, '..', '..');

describe('V8 tuning', () => {
  const options = spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8' }).stdout;

  it.each(V8_RULES.map((r) => [r.flag]))('%s is a flag of this Node, and it takes the value', (flag) => {
    const [name, value] = flag.slice(2).split('=');
    const listed = new RegExp(`^\\s+--${name} \\(`, 'm');
    expect(options).toMatch(listed);
    // V8 prints the flags it was given back with --print-flag-values; a value it refused is not there.
    const printed = spawnSync(process.execPath, [flag, '--print-flag-values', '-e', '0'], { encoding: 'utf8' }).stdout;
    expect(printed).toMatch(new RegExp(`--${name}=${value}\\b`));
  });

  it('every rule says why and what it was measured to change', () => {
    for (const rule of V8_RULES) {
      expect(rule.why.length).toBeGreaterThan(40);
      expect(rule.evidence).toMatch(/\d/);
    }
  });

  it('bin/cmv.js sets them before it imports anything else of cmv', () => {
    const bin = readFileSync(join(ROOT, 'bin', 'cmv.js'), 'utf8');
    const imports = [...bin.matchAll(/import\('([^']+)'\)/g)].map((m) => m[1]);
    expect(imports[0]).toBe('../dist/v8-tuning.js');
    expect(bin.indexOf('tuneV8()')).toBeLessThan(bin.indexOf(imports[1]));
  });
});
