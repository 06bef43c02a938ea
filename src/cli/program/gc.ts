// `cmv gc`: repack the snapshot store and drop what nothing reaches.

import { Output } from '../output.js';
import { command, jsonOption, type Run } from './shared-options.js';

export const gc = (run: Run) =>
  command('gc', 'repack the snapshot store and drop what no snapshot or branch reaches', ['cmv gc'])
    .addOption(jsonOption())
    .action((opts: { json?: boolean }) => run(async () => (await import('../commands/gc.js')).gcCommand(new Output(opts))));
