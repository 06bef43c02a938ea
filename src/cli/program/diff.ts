// `cmv diff`: what changed between two snapshots.

import { Output } from '../output.js';
import { command, jsonOption, snapshotArgument, type Run } from './shared-options.js';

export const diff = (run: Run) =>
  command('diff', 'messages added and removed between two snapshots, the token delta and the files newly touched', ['cmv diff auth-work-1 auth-work-2', 'cmv diff auth-work auth-work-branch-1 --json'])
    .addArgument(snapshotArgument('<a>', 'the earlier snapshot'))
    .addArgument(snapshotArgument('<b>', 'the later snapshot'))
    .addOption(jsonOption())
    .action((a: string, b: string, opts: { json?: boolean }) => run(async () => (await import('../commands/diff.js')).diffCommand(a, b, new Output(opts))));
