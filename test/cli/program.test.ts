// The command tree as declared in src/cli/program/: options several commands share are declared
// once, so their help says the same thing everywhere and states the defaults cmv applies.

import type { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.js';
import { DEFAULT_TRIM_OPTIONS } from '../../src/trim/options.js';
import { CONFIG_KEYS } from '../../src/config/config-keys.js';

const program = () => buildProgram(async () => {});

function allCommands(command: Command): Command[] {
  return [command, ...command.commands.flatMap(allCommands)];
}

function optionsNamed(long: string): { command: string; option: Option }[] {
  return allCommands(program()).flatMap((command) => command.options.filter((o) => o.long === long).map((option) => ({ command: command.name(), option })));
}

describe('the command tree', () => {
  it('states the threshold a trim applies by default in every command that takes --threshold', () => {
    const thresholds = optionsNamed('--threshold');
    expect(thresholds.map((t) => t.command).sort()).toEqual(['analyze', 'branch', 'breakeven', 'trim']);
    expect(CONFIG_KEYS['trim.threshold'].defaultValue).toBe(DEFAULT_TRIM_OPTIONS.threshold);
    for (const { command, option } of thresholds) expect(option.description, command).toContain(`, ${DEFAULT_TRIM_OPTIONS.threshold})`);
  });

  it('describes each shared trim flag the same way wherever it appears', () => {
    for (const flag of ['--threshold', '--budget', '--keep-history', '--strip-user-images']) {
      const descriptions = new Set(
        optionsNamed(flag)
          .filter((o) => ['trim', 'breakeven', 'analyze', 'branch'].includes(o.command))
          .map((o) => o.option.description.replace(/^trim: /, '')),
      );
      expect([...descriptions], flag).toHaveLength(1);
    }
  });

  it('describes --model and --models the same way in breakeven and analyze', () => {
    for (const flag of ['--model', '--models']) expect(new Set(optionsNamed(flag).map((o) => o.option.description)).size, flag).toBe(1);
  });

  it('gives every subcommand the root settings (suggestions after an error)', () => {
    for (const command of allCommands(program())) expect((command as unknown as { _showSuggestionAfterError: boolean })._showSuggestionAfterError, command.name()).toBe(true);
  });
});
