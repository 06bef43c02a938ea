// `cmv config ...`: read and change cmv's settings.

import { Argument } from 'commander';
import { Output } from '../output.js';
import { completes } from '../completion/kinds.js';
import { command, jsonOption, type Run } from './shared-options.js';

const keyArgument = () => completes(new Argument('<key>', 'a setting, e.g. trim.threshold'), 'config-keys');

export const config = (run: Run) => {
  const configCommand = command('config', "read and change cmv's settings ($XDG_CONFIG_HOME/cmv/config.json)", [
    'cmv config list',
    'cmv config set trim.threshold 2000',
    'cmv config set hook.growthBytes 8MB',
    'cmv config get model',
    'cmv config unset model',
  ]);
  configCommand.addCommand(
    command('list', 'every setting, its value and what it does', ['cmv config list', 'cmv config list --json'])
      .addOption(jsonOption())
      .action((opts: { json?: boolean }) => run(async () => (await import('../commands/config.js')).configListCommand(new Output(opts)))),
  );
  configCommand.addCommand(
    command('get', 'print one setting', ['cmv config get trim.threshold'])
      .addArgument(keyArgument())
      .addOption(jsonOption())
      .action((key: string, opts: { json?: boolean }) => run(async () => (await import('../commands/config.js')).configGetCommand(key, new Output(opts)))),
  );
  configCommand.addCommand(
    command('set', 'change one setting (checked before it is written)', ['cmv config set trim.threshold 2000', 'cmv config set model sonnet-4.5', 'cmv config set claude.binary /usr/local/bin/claude'])
      .addArgument(keyArgument())
      .argument('<value>', 'its new value')
      .addOption(jsonOption())
      .action((key: string, value: string, opts: { json?: boolean }) => run(async () => (await import('../commands/config.js')).configSetCommand(key, value, new Output(opts)))),
  );
  configCommand.addCommand(
    command('unset', 'put one setting back to its default', ['cmv config unset model'])
      .addArgument(keyArgument())
      .addOption(jsonOption())
      .action((key: string, opts: { json?: boolean }) => run(async () => (await import('../commands/config.js')).configUnsetCommand(key, new Output(opts)))),
  );
  return configCommand;
};
