// `cmv trim`: a session with the bulk stubbed, as a new session, a file or in place.

import { Option } from 'commander';
import { Output } from '../output.js';
import type { TrimCommandOptions } from '../commands/trim.js';
import { command, jsonOption, outputFileOptions, projectDirOption, sessionArgument, trimOptions, withOptions, type Run } from './shared-options.js';

export const trim = (run: Run) =>
  withOptions(
    command('trim', 'trim a session: keep every user and assistant text and every tool pairing, stub the bulk', [
      'cmv trim latest                      # new session; prints `claude --resume <id>`',
      'cmv trim 3f2a --dry-run              # what would go',
      'cmv trim 3f2a -o trimmed.jsonl --json',
      'cmv trim 3f2a --in-place             # backup first; undo with `cmv restore 3f2a`',
      'cmv trim 3f2a --budget 40000         # also evict old episodes to fit 40k tokens',
    ]).addArgument(sessionArgument()),
    [
      ...outputFileOptions('trimmed'),
      new Option('--in-place', 'replace the session log itself (a backup is kept; `cmv restore` undoes it)'),
      ...trimOptions(),
      projectDirOption(),
      new Option('--dry-run', 'report what would be removed, write nothing'),
      jsonOption(),
    ],
  ).action((session: string, opts: TrimCommandOptions & { json?: boolean }) => run(async () => (await import('../commands/trim.js')).trimCommand(session, opts, new Output(opts))));
