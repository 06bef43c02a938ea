// `cmv list`: every snapshot and branch in the store.

import { Option } from 'commander';
import { Output } from '../output.js';
import { completes } from '../completion/kinds.js';
import type { ListCommandOptions } from '../commands/list.js';
import { command, jsonOption, type Run } from './shared-options.js';

export const list = (run: Run) =>
  command('list', 'every snapshot and branch in the store', ['cmv list', 'cmv list --tag pre-compact', 'cmv list --json'])
    .option('--tag <tag>', 'only snapshots with this tag')
    .addOption(completes(new Option('--session <id>', 'only snapshots of sessions whose id starts with ID'), 'sessions'))
    .addOption(jsonOption())
    .action((opts: ListCommandOptions & { json?: boolean }) => run(async () => (await import('../commands/list.js')).listCommand(opts, new Output(opts))));
