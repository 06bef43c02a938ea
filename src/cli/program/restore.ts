// `cmv restore`: undo an in-place change of a session from its backup.

import { Output } from '../output.js';
import { command, jsonOption, type Run } from './shared-options.js';

export const restore = (run: Run) =>
  command('restore', 'undo the last in-place change of a session from its backup', ['cmv restore 3f2a'])
    .argument('<session>', 'the session changed in place')
    .addOption(jsonOption())
    .action((session: string, opts: { json?: boolean }) => run(async () => (await import('../commands/restore.js')).restoreCommand(session, new Output(opts))));
