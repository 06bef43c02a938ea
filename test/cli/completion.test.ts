// Shell completions are generated from the command tree: a command added to the tree completes
// without anyone touching a list. Bash runs the script for real; zsh and fish check its syntax
// when they are installed.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.js';
import { completionScript } from '../../src/cli/commands/completion.js';

const program = () => buildProgram(async () => {});
const has = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;

/** Stands in for cmv at the TAB: what `cmv __complete <kind>` would list. */
const FAKE_CMV = `cmv() { case "$2" in snapshots) printf 'auth-work\\nretry\\n' ;; sessions) printf '3f2a9c1e-5b7d-4e0f-9a1b-2c3d4e5f6a7b\\n' ;; remotes) printf 'origin\\n' ;; config-keys) printf 'trim.threshold\\nmodel\\n' ;; esac; }`;

function bashComplete(line: string): string[] {
  const words = line.split(' ');
  const script = `${FAKE_CMV}\n${completionScript('bash', program())}
COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}
_cmv_completion; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const run = spawnSync('bash', ['--norc', '-c', script], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  return run.stdout.split('\n').filter(Boolean);
}

describe.skipIf(!has('bash'))('bash completion', () => {
  it('completes commands, subcommands, options and their fixed values', () => {
    expect(bashComplete('cmv st')).toEqual(['stats']);
    expect(bashComplete('cmv hook ')).toEqual(expect.arrayContaining(['install', 'uninstall', 'status', 'restore']));
    expect(bashComplete('cmv hook ')).not.toContain('run'); // hidden
    expect(bashComplete('cmv hook install --s')).toEqual(['--scope', '--size-guard']);
    expect(bashComplete('cmv hook install --scope ')).toEqual(['user', 'project', 'local']);
    expect(bashComplete('cmv completion ')).toEqual(['bash', 'zsh', 'fish']);
    expect(bashComplete('cmv trim 3f2a --in')).toEqual(['--in-place']);
    expect(bashComplete('cmv stats la')).toEqual(['latest']);
  });

  it('offers snapshot names, session ids, remotes and config keys as they are at the TAB', () => {
    expect(bashComplete('cmv branch ')).toEqual(['auth-work', 'retry']);
    expect(bashComplete('cmv diff auth-work r')).toEqual(['retry']);
    expect(bashComplete('cmv stats 3f')).toEqual(['3f2a9c1e-5b7d-4e0f-9a1b-2c3d4e5f6a7b']);
    expect(bashComplete('cmv pull ')).toEqual(['origin']);
    expect(bashComplete('cmv config set ')).toEqual(['trim.threshold', 'model']);
  });

  it('offers no file names where no file goes (--tier, --threshold, config keys), and tiers for --tier', () => {
    expect(bashComplete('cmv resume latest --tier ')).toEqual(['critical', 'standard', 'full']);
    expect(bashComplete('cmv trim latest --threshold ')).toEqual([]);
    expect(bashComplete('cmv config get zz')).toEqual([]);
    expect(bashComplete('cmv analyze --svg ').length).toBeGreaterThan(0); // a folder goes there: files offered
  });

  it('follows the tree: a new command completes with no list to update', () => {
    const tree = program();
    tree.command('frobnicate').option('--wobble <how>').description('test');
    const script = `${completionScript('bash', tree)}\nCOMP_WORDS=(cmv frob); COMP_CWORD=1; _cmv_completion; echo "\${COMPREPLY[@]}"`;
    expect(spawnSync('bash', ['--norc', '-c', script], { encoding: 'utf8' }).stdout.trim()).toBe('frobnicate');
  });
});

describe('zsh and fish completion', () => {
  it('name every command and option of the tree', () => {
    for (const shell of ['zsh', 'fish']) {
      const script = completionScript(shell, program());
      for (const word of ['sessions', 'stats', 'trim', 'hook', 'install', 'completion', 'config', 'size-guard', 'scope', 'ui']) expect(script, `${shell}: ${word}`).toContain(word);
    }
    expect(completionScript('zsh', program())).toMatch(/^#compdef cmv/);
  });

  it.skipIf(!has('zsh'))('is valid zsh that defines a function per command', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cmv-zsh-')), '_cmv');
    writeFileSync(file, completionScript('zsh', program()));
    expect(spawnSync('zsh', ['-n', file], { encoding: 'utf8' }).status).toBe(0);
    const run = spawnSync('zsh', ['-fc', `autoload -U compinit; compinit -u -d ${file}.dump; source ${file}; whence -w _cmv _cmv_hook_install`], { encoding: 'utf8' });
    expect(run.stdout).toBe('_cmv: function\n_cmv_hook_install: function\n');
  });

  it.skipIf(!has('fish'))('is valid fish whose helper finds the subcommand typed', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cmv-fish-')), 'cmv.fish');
    writeFileSync(file, completionScript('fish', program()));
    expect(spawnSync('fish', ['--no-execute', file], { encoding: 'utf8' }).status).toBe(0);
    const run = spawnSync('fish', ['-c', `source ${file}; complete -C 'cmv hook install --scope '`], { encoding: 'utf8' });
    expect(
      run.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0]),
    ).toEqual(['local', 'project', 'user']);
  });

  it('refuses a shell it does not know', () => {
    expect(() => completionScript('powershell', program())).toThrow(/no completion for the shell "powershell"/);
  });
});
