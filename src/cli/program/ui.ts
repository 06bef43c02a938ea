// `cmv ui`: the dashboard (needs a terminal).

import { Output } from '../output.js';
import type { UiOptions } from '../commands/ui.js';
import { command, type Run } from './shared-options.js';

export const ui = (run: Run) =>
  command('ui', 'the dashboard: projects, sessions and snapshots, token composition, trim preview, break-even (needs a terminal)', [
    'cmv ui',
    'cmv                                  # the same, on a terminal',
    'cmv ui --launch',
  ])
    .option('--launch', "Enter starts `claude --resume` in the session's folder instead of printing the command")
    .action((opts: UiOptions) => run(async () => (await import('../commands/ui.js')).uiCommand(opts, new Output())));
