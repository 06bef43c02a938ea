// `cmv import`: take in the snapshots of a bundle.

import { Output } from '../output.js';
import { command, jsonOption, type Run } from './shared-options.js';

export const importBundle = (run: Run) =>
  command('import', 'take in the snapshots of a bundle made by `cmv export` (checked before anything is named)', ['cmv import auth.bundle', 'cmv import team.bundle --json'])
    .argument('<file>', 'the bundle')
    .addOption(jsonOption())
    .action((file: string, opts: { json?: boolean }) => run(async () => (await import('../commands/import.js')).importCommand(file, new Output(opts))));
