// `cmv resume`: the resume block of a session in a token budget.

import { Output } from '../output.js';
import type { ResumeCommandOptions } from '../commands/resume.js';
import { command, jsonOption, sessionArgument, tierOption, type Run } from './shared-options.js';

export const resume = (run: Run) =>
  command('resume', 'the resume block of a session: goal, work in progress and done, decisions, files, errors, in a token budget', [
    'cmv resume latest',
    'cmv resume 3f2a --tier critical',
    'cmv resume 3f2a --budget 78 --json',
    'cmv resume 3f2a --tier full | pbcopy',
  ])
    .addArgument(sessionArgument())
    .addOption(tierOption('critical (<= 100 tokens), standard (<= 300, the default) or full (<= 600)'))
    .option('--budget <tokens>', "fit the block in TOKENS instead of the tier's budget")
    .addOption(jsonOption('print JSON ({text, tokens, tier, sections})'))
    .action((session: string, opts: ResumeCommandOptions & { json?: boolean }) => run(async () => (await import('../commands/resume.js')).resumeCommand(session, opts, new Output(opts))));
