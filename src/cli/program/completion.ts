// `cmv completion <shell>`: a completion script generated from the command tree itself.

import { Argument, type Command } from 'commander';
import { Output } from '../output.js';
import { INSTALL_LINES, SHELLS } from '../commands/completion.js';
import { command, type Run } from './shared-options.js';

export const completion = (run: Run) =>
  command(
    'completion',
    'print a shell completion script (bash, zsh or fish), generated from the commands themselves',
    SHELLS.map((shell) => INSTALL_LINES[shell]),
  )
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices([...SHELLS]))
    .action((shell: string, _opts: unknown, cmd: Command) => run(async () => (await import('../commands/completion.js')).completionCommand(shell, cmd.parent ?? cmd, new Output())));
