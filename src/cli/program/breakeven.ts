// `cmv breakeven`: when a trim pays for itself under prompt caching.

import { Option } from 'commander';
import { Output } from '../output.js';
import type { BreakevenCommandOptions } from '../commands/breakeven.js';
import { command, jsonOption, priceOptions, sessionArgument, trimOptions, withOptions, type Run } from './shared-options.js';

export const breakeven = (run: Run) =>
  withOptions(
    command('breakeven', 'when a trim pays for itself under prompt caching: the logged calls replayed at list prices, then projected', [
      'cmv breakeven latest',
      'cmv breakeven 3f2a --at 40            # had I trimmed after call 40',
      'cmv breakeven 3f2a --model sonnet-4.5 # at Sonnet prices',
      'cmv breakeven ./session.jsonl --json',
    ]).addArgument(sessionArgument()),
    [...priceOptions(), new Option('--at <call>', 'trim after main call CALL of the log instead of now; the calls after it are replayed'), ...trimOptions('trim: '), jsonOption()],
  ).action((session: string, opts: BreakevenCommandOptions & { json?: boolean }) => run(async () => (await import('../commands/breakeven.js')).breakevenCommand(session, opts, new Output(opts))));
