// The cmv command line: commander wiring only. Each command lives in its own file and calls
// one core function; errors are mapped to exit codes here.

import { Command, CommanderError } from 'commander';
import chalk from 'chalk';
import { isCmvError } from '../errors.js';
import { cmvVersion } from '../version.js';
import { exitCodeFor, EXIT_OK } from './exit-codes.js';
import { Output, forTerminal } from './output.js';
import { examples, type CommandDefinition, type Run } from './program/shared-options.js';
import { sessions } from './program/sessions.js';
import { stats } from './program/stats.js';
import { trim } from './program/trim.js';
import { verify } from './program/verify.js';
import { restore } from './program/restore.js';
import { breakeven } from './program/breakeven.js';
import { analyze } from './program/analyze.js';
import { ui } from './program/ui.js';
import { hook } from './program/hook.js';
import { completion } from './program/completion.js';
import { config } from './program/config.js';
import { graph } from './program/graph.js';
import { resume } from './program/resume.js';
import { compact } from './program/compact.js';
import { snapshot } from './program/snapshot.js';
import { branch } from './program/branch.js';
import { list } from './program/list.js';
import { log } from './program/log.js';
import { tree } from './program/tree.js';
import { show } from './program/show.js';
import { diff } from './program/diff.js';
import { rm } from './program/rm.js';
import { gc } from './program/gc.js';
import { fsck } from './program/fsck.js';
import { exportBundle } from './program/export.js';
import { importBundle } from './program/import.js';
import { remote } from './program/remote.js';
import { push } from './program/push.js';
import { pull } from './program/pull.js';
import { completeWords } from './program/complete-words.js';

/** Every command, in the order `cmv --help` lists them; each is declared in src/cli/program/. */
const COMMANDS: CommandDefinition[] = [
  sessions,
  stats,
  trim,
  verify,
  restore,
  breakeven,
  analyze,
  ui,
  hook,
  completion,
  config,
  graph,
  resume,
  compact,
  snapshot,
  branch,
  list,
  log,
  tree,
  show,
  diff,
  rm,
  gc,
  fsck,
  exportBundle,
  importBundle,
  remote,
  push,
  pull,
];

/** Gives every command below `parent` the settings of the root (exit override, suggestions, help after an error). */
function inheritSettings(parent: Command): void {
  for (const sub of parent.commands) {
    sub.copyInheritedSettings(parent);
    inheritSettings(sub);
  }
}

/** Builds the command tree (also used to generate shell completions). */
export function buildProgram(run: Run): Command {
  const program = new Command('cmv')
    .description('Version, trim and analyse Claude Code sessions: keep what a session learned, drop the bulk.')
    .version(cmvVersion(), '-V, --version')
    .option('--color', 'colour even when not on a terminal (also FORCE_COLOR=1)')
    .option('--no-color', 'disable colour (also NO_COLOR=1)')
    .showSuggestionAfterError(true)
    .showHelpAfterError('(run `cmv --help` for usage)')
    .addHelpText(
      'before',
      examples(['cmv                    # the dashboard, on a terminal', 'cmv sessions', 'cmv stats latest', 'cmv stats 3f2a --json', 'cmv stats ./sample-sessions/coding.jsonl']),
    );
  // Commander must throw rather than exit, from every command, for usage errors to exit 2.
  program.exitOverride();
  for (const define of COMMANDS) program.addCommand(define(run));
  program.addCommand(completeWords(run), { hidden: true });
  inheritSettings(program);
  return program;
}

/** Runs the CLI and returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  let exitCode = EXIT_OK;
  const run = async (action: () => Promise<number | void>) => {
    try {
      const code = await action();
      if (typeof code === 'number') exitCode = code;
    } catch (error) {
      exitCode = reportError(error);
    }
  };
  const program = buildProgram(run);
  try {
    if (argv.length <= 2) {
      // `cmv` alone: the dashboard on a terminal, the help anywhere else.
      const ui = await import('./commands/ui.js');
      if (ui.dashboardBlocker() === undefined) await run(() => ui.uiCommand({}, new Output()));
      else program.outputHelp();
      return exitCode;
    }
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return EXIT_OK;
      return exitCodeFor('USAGE');
    }
    return reportError(error);
  }
  return exitCode;
}

function reportError(error: unknown): number {
  if (isCmvError(error)) {
    process.stderr.write(`${chalk.red('cmv:')} ${forTerminal(error.message)}\n`);
    if (error.hint) process.stderr.write(`${chalk.dim('hint:')} ${forTerminal(error.hint)}\n`);
    if (process.env.CMV_DEBUG === '1' && error.stack) process.stderr.write(`${error.stack}\n`);
    return exitCodeFor(error.code);
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`${chalk.red('cmv: internal error:')} ${forTerminal(message)}\n`);
  process.stderr.write(`${chalk.dim('hint:')} run again with CMV_DEBUG=1 for details, and report it\n`);
  if (process.env.CMV_DEBUG === '1' && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  return exitCodeFor('INTERNAL');
}
