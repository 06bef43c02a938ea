// `cmv branch`: a snapshot materialised as a new Claude Code session.

import { Option } from 'commander';
import { Output } from '../output.js';
import type { BranchCommandOptions } from '../commands/branch.js';
import { command, jsonOption, projectDirOption, snapshotArgument, tierOption, trimOptions, withOptions, type Run } from './shared-options.js';

export const branch = (run: Run) =>
  withOptions(
    command('branch', 'materialise a snapshot as a new Claude Code session (trimmed by default) and print how to resume it', [
      'cmv branch auth-work                 # prints `cd <project> && claude --resume <id>`',
      'cmv branch auth-work -n retry --launch',
      'cmv branch auth-work --with-resume --tier critical',
      'cmv branch auth-work --at 7d3e9a1c      # fork at a message: the branch ends with it',
      'cmv branch auth-work --no-trim --json',
      'cmv branch auth-work --project-dir ~/src/app   # the project moved: drift and disk checks look there',
    ]).addArgument(snapshotArgument()),
    [
      new Option('-n, --name <name>', "the branch's name (default: <snapshot>-branch-<n>)"),
      new Option('--at <message>', 'fork at a message (its uuid, or a unique prefix): the branch ends with it, as `claude --resume-session-at` does'),
      new Option('--no-trim', 'keep the log whole (only its session id changes)'),
      ...trimOptions('trim: '),
      projectDirOption(),
      new Option('--with-resume', "put the snapshot's resume block (from its session graph) in front of the branched session"),
      tierOption('with --with-resume: critical, standard (default) or full'),
      new Option('--launch', "run `claude --resume` in the session's project folder"),
      jsonOption(),
    ],
  ).action((snapshotName: string, opts: BranchCommandOptions & { json?: boolean }) => run(async () => (await import('../commands/branch.js')).branchCommand(snapshotName, opts, new Output(opts))));
