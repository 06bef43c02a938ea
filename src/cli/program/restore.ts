// `cmv restore`: put back a session as it was before its in-place trims, or list its backups.

import { Output } from '../output.js';
import { command, jsonOption, type Run } from './shared-options.js';

export const restore = (run: Run) =>
  command('restore', 'put back a session as it was before its in-place trims, keeping the lines written since (never toggles)', [
    'cmv restore 3f2a',
    'cmv restore 3f2a --list',
    'cmv restore 3f2a --from 20261126-041502',
  ])
    .argument('<session>', 'the session changed in place')
    .option('--list', 'list the backups of the session, newest first')
    .option('--from <backup>', 'restore this backup (an id from --list) instead of the first of the current run')
    .addOption(jsonOption())
    .action((session: string, opts: { json?: boolean; list?: boolean; from?: string }) => run(async () => (await import('../commands/restore.js')).restoreCommand(session, opts, new Output(opts))));
