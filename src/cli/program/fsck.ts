// `cmv fsck`: verify the snapshot store.

import { Output } from '../output.js';
import { command, jsonOption, type Run } from './shared-options.js';

export const fsck = (run: Run) =>
  command('fsck', 'verify every object and every page of the snapshot store; exit non-zero on damage', ['cmv fsck', 'cmv fsck --json'])
    .addOption(jsonOption())
    .action((opts: { json?: boolean }) => run(async () => (await import('../commands/fsck.js')).fsckCommand(new Output(opts))));
