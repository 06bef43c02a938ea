// `cmv snapshot`: store a session in the git-backed store.

import { Output } from '../output.js';
import type { SnapshotCommandOptions } from '../commands/snapshot.js';
import { command, jsonOption, sessionArgument, type Run } from './shared-options.js';

export const snapshot = (run: Run) =>
  command('snapshot', 'store a session as a snapshot in the git-backed store (the session is never touched)', [
    'cmv snapshot latest -n auth-work -m "before the refactor"',
    'cmv snapshot 3f2a -t auth,wip',
    'cmv snapshot ./session.jsonl --json',
  ])
    .addArgument(sessionArgument())
    .option('-n, --name <name>', "the snapshot's name (default: <session id prefix>-<n>)")
    .option('-m, --message <text>', 'a description, stored with the snapshot')
    .option('-t, --tag <tags>', 'comma-separated tags')
    .addOption(jsonOption())
    .action((session: string, opts: SnapshotCommandOptions & { json?: boolean }) => run(async () => (await import('../commands/snapshot.js')).snapshotCommand(session, opts, new Output(opts))));
