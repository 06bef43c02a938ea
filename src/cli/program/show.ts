// `cmv show`: everything stored about a snapshot.

import { Output } from '../output.js';
import { command, jsonOption, snapshotArgument, type Run } from './shared-options.js';

export const show = (run: Run) =>
  command('show', 'everything stored about a snapshot: meta, lineage and children', ['cmv show auth-work', 'cmv show auth-work --json'])
    .addArgument(snapshotArgument())
    .addOption(jsonOption())
    .action((snapshotName: string, opts: { json?: boolean }) => run(async () => (await import('../commands/show.js')).showCommand(snapshotName, new Output(opts))));
