// `cmv log`: the lineage of a snapshot.

import { Output } from '../output.js';
import { command, jsonOption, snapshotArgument, type Run } from './shared-options.js';

export const log = (run: Run) =>
  command('log', 'the lineage of a snapshot (what it grew or was branched from), or every snapshot', ['cmv log', 'cmv log auth-work-branch-1', 'cmv log auth-work --json'])
    .addArgument(snapshotArgument('[name]', 'a snapshot or branch name'))
    .addOption(jsonOption())
    .action((name: string | undefined, opts: { json?: boolean }) => run(async () => (await import('../commands/log.js')).logCommand(name, new Output(opts))));
