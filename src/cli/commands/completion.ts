// `cmv completion <shell>`: a completion script for bash, zsh or fish, generated from the command
// tree itself (never a hand-kept list), printed on stdout.

import type { Command } from 'commander';
import { commandSpec } from '../completion/command-spec.js';
import { bashCompletion } from '../completion/bash.js';
import { zshCompletion } from '../completion/zsh.js';
import { fishCompletion } from '../completion/fish.js';
import { CmvError } from '../../errors.js';
import type { Output } from '../output.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export const INSTALL_LINES: Record<Shell, string> = {
  bash: 'cmv completion bash > ~/.local/share/bash-completion/completions/cmv',
  zsh: 'cmv completion zsh > "${fpath[1]}/_cmv"   # then restart zsh',
  fish: 'cmv completion fish > ~/.config/fish/completions/cmv.fish',
};

export function completionScript(shell: string, program: Command): string {
  const spec = commandSpec(program);
  if (shell === 'bash') return bashCompletion(spec);
  if (shell === 'zsh') return zshCompletion(spec);
  if (shell === 'fish') return fishCompletion(spec);
  throw new CmvError('USAGE', `no completion for the shell "${shell}"`, { hint: `choose one of ${SHELLS.join(', ')}` });
}

export async function completionCommand(shell: string, program: Command, out: Output, isTTY = process.stdout.isTTY === true): Promise<void> {
  const script = completionScript(shell, program);
  process.stdout.write(script);
  if (isTTY) out.info(`# to install it:\n#   ${INSTALL_LINES[shell as Shell]}`);
}
