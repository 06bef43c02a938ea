// `cmv sessions`: every Claude Code session found, newest first.

import { Output } from '../output.js';
import { command, jsonOption, type Run } from './shared-options.js';

export const sessions = (run: Run) =>
  command('sessions', 'list every Claude Code session found, newest first', ['cmv sessions', 'cmv sessions --project my-app', 'cmv sessions --json'])
    .option('-p, --project <text>', 'only sessions whose project path contains TEXT')
    .addOption(jsonOption())
    .action((opts: { project?: string; json?: boolean }) => run(async () => (await import('../commands/sessions.js')).sessionsCommand(opts, new Output(opts))));
