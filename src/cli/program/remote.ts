// `cmv remote ...`: the git remotes snapshots are shared through.

import { Argument } from 'commander';
import { Output } from '../output.js';
import { completes } from '../completion/kinds.js';
import { command, jsonOption, type Run } from './shared-options.js';

const nameHelp = "the remote's name";

export const remote = (run: Run) => {
  const remoteCommand = command('remote', 'the git remotes snapshots are shared through', ['cmv remote add origin git@github.com:me/cmv-snapshots.git', 'cmv remote list', 'cmv remote remove origin']);
  remoteCommand.addCommand(
    command('add', 'add a git remote', ['cmv remote add origin git@github.com:me/cmv-snapshots.git', 'cmv remote add local /srv/snapshots.git'])
      .argument('<name>', nameHelp)
      .argument('<url>', 'any URL git accepts, or the path of a bare repository')
      .addOption(jsonOption())
      .action((name: string, url: string, opts: { json?: boolean }) => run(async () => (await import('../commands/remote.js')).remoteAddCommand(name, url, new Output(opts)))),
  );
  remoteCommand.addCommand(
    command('remove', 'remove a git remote', ['cmv remote remove origin'])
      .addArgument(completes(new Argument('<name>', nameHelp), 'remotes'))
      .addOption(jsonOption())
      .action((name: string, opts: { json?: boolean }) => run(async () => (await import('../commands/remote.js')).remoteRemoveCommand(name, new Output(opts)))),
  );
  remoteCommand.addCommand(
    command('list', 'the remotes', ['cmv remote list'])
      .addOption(jsonOption())
      .action((opts: { json?: boolean }) => run(async () => (await import('../commands/remote.js')).remoteListCommand(new Output(opts)))),
  );
  return remoteCommand;
};
