// `cmv compact`: compaction without a model.

import { Option } from 'commander';
import { Output } from '../output.js';
import type { CompactCommandOptions } from '../commands/compact.js';
import { command, jsonOption, outputFileOptions, sessionArgument, tierOption, withOptions, type Run } from './shared-options.js';

export const compact = (run: Run) =>
  withOptions(
    command('compact', 'compact a session without a model: older history becomes the resume block, the latest turn stays (tool output stubbed), the last messages stay exactly', [
      'cmv compact latest                   # new session; prints `claude --resume <id>`',
      'cmv compact 3f2a --keep 10',
      'cmv compact 3f2a -o compacted.jsonl --json',
    ]).addArgument(sessionArgument()),
    [
      new Option('--keep <n>', 'messages kept exactly at the end (default 5)'),
      ...outputFileOptions('compacted'),
      tierOption("the summary's tier: critical, standard or full (the default)"),
      new Option('--budget <tokens>', "the summary's token budget instead of the tier's"),
      jsonOption(),
    ],
  ).action((session: string, opts: CompactCommandOptions & { json?: boolean }) => run(async () => (await import('../commands/compact.js')).compactCommand(session, opts, new Output(opts))));
