// `cmv stats`: where the tokens of a session go.

import { Output } from '../output.js';
import { command, jsonOption, sessionArgument, type Run } from './shared-options.js';

export const stats = (run: Run) =>
  command('stats', 'show where the tokens of a session go', ['cmv stats latest', 'cmv stats 3f2a9c1e', 'cmv stats ~/.claude/projects/-home-me-app/3f2a9c1e-….jsonl --json'])
    .addArgument(sessionArgument())
    .addOption(jsonOption())
    .action((session: string, opts: { json?: boolean }) => run(async () => (await import('../commands/stats.js')).statsCommand(session, new Output(opts))));
