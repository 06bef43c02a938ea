// `cmv push`: share snapshots through a git remote.

import { Output } from '../output.js';
import { command, jsonOption, redactOption, remoteArgument, snapshotArgument, type Run } from './shared-options.js';

export const push = (run: Run) =>
  command('push', 'share snapshots (with their lineage) through a git remote, secrets redacted', ['cmv push', 'cmv push origin auth-work', 'cmv push origin --json'])
    .addArgument(remoteArgument())
    .addArgument(snapshotArgument('[names...]', 'snapshot or branch names (default: all)'))
    .addOption(redactOption())
    .addOption(jsonOption())
    .action((remoteName: string | undefined, names: string[], opts: { redact?: boolean; json?: boolean }) =>
      run(async () => (await import('../commands/push.js')).pushCommand(remoteName, names, opts, new Output(opts))),
    );
