// The cmv command line: commander wiring only. Each command lives in its own file and calls
// one core function; errors are mapped to exit codes here.

import { Command, CommanderError } from 'commander';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import chalk from 'chalk';
import { isCmvError } from '../errors.js';
import { exitCodeFor, EXIT_OK } from './exit-codes.js';
import { Output } from './output.js';
import { sessionsCommand } from './commands/sessions.js';
import { statsCommand } from './commands/stats.js';
import { trimCommand, type TrimCommandOptions } from './commands/trim.js';
import { verifyCommand } from './commands/verify.js';
import { restoreCommand } from './commands/restore.js';

export function packageVersion(): string {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
}

function examples(lines: string[]): string {
  return `Examples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}

/** Builds the command tree (also used to generate shell completions). */
export function buildProgram(run: (action: () => Promise<number | void>) => Promise<void>): Command {
  const program = new Command('cmv')
    .description('Version, trim and analyse Claude Code sessions: keep what a session learned, drop the bulk.')
    .version(packageVersion(), '-V, --version')
    .option('--color', 'colour even when not on a terminal (also FORCE_COLOR=1)')
    .option('--no-color', 'disable colour (also NO_COLOR=1)')
    .showSuggestionAfterError(true)
    .showHelpAfterError('(run `cmv --help` for usage)')
    .addHelpText(
      'before',
      examples(['cmv sessions', 'cmv stats latest', 'cmv stats 3f2a --json', 'cmv stats ./sample-sessions/coding.jsonl']),
    );

  program
    .command('sessions')
    .description('list every Claude Code session found, newest first')
    .option('-p, --project <text>', 'only sessions whose project path contains TEXT')
    .option('--json', 'print JSON')
    .addHelpText('before', examples(['cmv sessions', 'cmv sessions --project my-app', 'cmv sessions --json']))
    .action((opts: { project?: string; json?: boolean }) => run(() => sessionsCommand(opts, new Output(opts))));

  program
    .command('stats')
    .description('show where the tokens of a session go')
    .argument('<session>', 'a .jsonl path, a session id, a unique id prefix (4+ chars) or `latest`')
    .option('--json', 'print JSON')
    .addHelpText('before', examples(['cmv stats latest', 'cmv stats 3f2a9c1e', 'cmv stats ~/.claude/projects/-home-me-app/3f2a9c1e-….jsonl --json']))
    .action((session: string, opts: { json?: boolean }) => run(() => statsCommand(session, new Output(opts))));

  program
    .command('trim')
    .description('trim a session: keep every user and assistant text and every tool pairing, stub the bulk')
    .argument('<session>', 'a .jsonl path, a session id, a unique id prefix (4+ chars) or `latest`')
    .option('-o, --output <file>', 'write the trimmed log to FILE instead of a new session')
    .option('--in-place', 'replace the session log itself (a backup is kept; `cmv restore` undoes it)')
    .option('--force', 'with -o: overwrite FILE if it exists')
    .option('--threshold <chars>', 'stub tool results longer than CHARS characters (default 1000)')
    .option('--budget <tokens>', 'then evict old tool episodes until the session fits TOKENS; fails if it cannot')
    .option('--keep-history', 'keep the lines before the last compaction boundary')
    .option('--strip-user-images', 'stub images the user pasted too')
    .option('--dry-run', 'report what would be removed, write nothing')
    .option('--json', 'print JSON')
    .addHelpText(
      'before',
      examples([
        'cmv trim latest                      # new session; prints `claude --resume <id>`',
        'cmv trim 3f2a --dry-run              # what would go',
        'cmv trim 3f2a -o trimmed.jsonl --json',
        'cmv trim 3f2a --in-place             # backup first; undo with `cmv restore 3f2a`',
        'cmv trim 3f2a --budget 40000         # also evict old episodes to fit 40k tokens',
      ]),
    )
    .action((session: string, opts: TrimCommandOptions & { json?: boolean }) => run(() => trimCommand(session, opts, new Output(opts))));

  program
    .command('verify')
    .description('prove a trimmed log kept every text and tool pairing of its original; exit 0 only when it did')
    .argument('<original>', 'the original session')
    .argument('<trimmed>', 'the trimmed session')
    .option('--json', 'print JSON')
    .addHelpText('before', examples(['cmv verify original.jsonl trimmed.jsonl', 'cmv verify 3f2a 9c1e --json']))
    .action((original: string, trimmed: string, opts: { json?: boolean }) => run(() => verifyCommand(original, trimmed, new Output(opts))));

  program
    .command('restore')
    .description('undo the last in-place change of a session from its backup')
    .argument('<session>', 'the session changed in place')
    .option('--json', 'print JSON')
    .addHelpText('before', examples(['cmv restore 3f2a']))
    .action((session: string, opts: { json?: boolean }) => run(() => restoreCommand(session, new Output(opts))));

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
  program.exitOverride();
  try {
    if (argv.length <= 2) {
      program.outputHelp();
      return EXIT_OK;
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
    process.stderr.write(`${chalk.red('cmv:')} ${error.message}\n`);
    if (error.hint) process.stderr.write(`${chalk.dim('hint:')} ${error.hint}\n`);
    if (process.env.CMV_DEBUG === '1' && error.stack) process.stderr.write(`${error.stack}\n`);
    return exitCodeFor(error.code);
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`${chalk.red('cmv: internal error:')} ${message}\n`);
  process.stderr.write(`${chalk.dim('hint:')} run again with CMV_DEBUG=1 for details, and report it\n`);
  if (process.env.CMV_DEBUG === '1' && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  return exitCodeFor('INTERNAL');
}
