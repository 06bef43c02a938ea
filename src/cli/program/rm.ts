// `cmv rm`: remove a snapshot or branch name.

import { Output } from '../output.js';
import { command, jsonOption, snapshotArgument, type Run } from './shared-options.js';

export const rm = (run: Run) =>
  command('rm', 'remove a snapshot or branch name (`cmv gc` frees what nothing refers to any more)', ['cmv rm auth-work-1', 'cmv rm old-branch && cmv gc'])
    .addArgument(snapshotArgument('<name>', 'a snapshot or branch name'))
    .addOption(jsonOption())
    .action((name: string, opts: { json?: boolean }) => run(async () => (await import('../commands/rm.js')).rmCommand(name, new Output(opts))));
