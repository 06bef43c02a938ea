// `cmv tree`: the snapshot DAG drawn like `git log --graph`.

import { Output } from '../output.js';
import { command, jsonOption, type Run } from './shared-options.js';

export const tree = (run: Run) =>
  command('tree', 'the snapshot DAG drawn like `git log --graph`: snapshots, trims and branches with sizes and tokens', ['cmv tree', 'cmv tree --json'])
    .addOption(jsonOption())
    .action((opts: { json?: boolean }) => run(async () => (await import('../commands/tree.js')).treeCommand(new Output(opts))));
