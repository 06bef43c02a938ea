// `cmv pull`: take in the snapshots of a git remote.

import { Output } from '../output.js';
import { command, jsonOption, remoteArgument, type Run } from './shared-options.js';

export const pull = (run: Run) =>
  command('pull', 'take in the snapshots of a git remote (checked like an import)', ['cmv pull', 'cmv pull origin --json'])
    .addArgument(remoteArgument())
    .addOption(jsonOption())
    .action((remoteName: string | undefined, opts: { json?: boolean }) => run(async () => (await import('../commands/pull.js')).pullCommand(remoteName, new Output(opts))));
