// The options and arguments several commands share, each declared once, so `--help` cannot
// drift between commands (the trim flags of trim, breakeven, analyze and branch were four copies).

import { Argument, Command, Option } from 'commander';
import { DEFAULT_TRIM_OPTIONS } from '../../trim/options.js';
import { completes, offers } from '../completion/kinds.js';

/** How every command hands its work to the runner of main.ts (errors become exit codes there). */
export type Run = (action: () => Promise<number | void>) => Promise<void>;

/** A command declared in its own file: given the runner, it returns the command to register. */
export type CommandDefinition = (run: Run) => Command;

export function examples(lines: string[]): string {
  return `Examples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}

/** A new command with its description and examples. */
export function command(name: string, description: string, exampleLines: string[] = []): Command {
  const cmd = new Command(name).description(description);
  if (exampleLines.length > 0) cmd.addHelpText('before', examples(exampleLines));
  return cmd;
}

export const SESSION_HELP = 'a .jsonl path, a session id, a unique id prefix (4+ chars) or `latest`';
export const SNAPSHOT_HELP = 'a snapshot or branch name, or a commit id prefix';

export const sessionArgument = (name = 'session', description = SESSION_HELP) => new Argument(`<${name}>`, description);

/** A snapshot or branch name (`<snapshot>`, `[name]`, `<names...>`): completed with the store's names. */
export const snapshotArgument = (spec = '<snapshot>', description = SNAPSHOT_HELP) => completes(new Argument(spec, description), 'snapshots');

export const jsonOption = (description = 'print JSON') => new Option('--json', description);

/** Adds options in order. */
export function withOptions(cmd: Command, options: Option[]): Command {
  for (const option of options) cmd.addOption(option);
  return cmd;
}

/**
 * The trim flags. `purpose` prefixes their help where the command is not itself a trim
 * ("trim: ..."); the threshold's default is the one a trim applies without flags or config.
 */
export function trimOptions(purpose: '' | 'trim: ' = '', include: { budget?: boolean } = {}): Option[] {
  const options = [new Option('--threshold <chars>', `${purpose}stub tool results longer than CHARS characters (default: trim.threshold of \`cmv config\`, ${DEFAULT_TRIM_OPTIONS.threshold})`)];
  if (include.budget !== false) options.push(new Option('--budget <tokens>', `${purpose}then evict old tool episodes until the session fits TOKENS`));
  options.push(new Option('--keep-history', `${purpose}keep the lines before the last compaction boundary`), new Option('--strip-user-images', `${purpose}stub images the user pasted too`));
  return options;
}

/** Where the session's project lives now, for the commands that read its files (the trim's disk checks, a branch's drift warning). */
export const projectDirOption = () =>
  new Option('--project-dir <dir>', "the session's project lives at DIR now (a moved checkout, another machine): its files show which Edit/Write inputs applied and what changed since");

/** How a cost command prices the logged calls. */
export function priceOptions(): Option[] {
  return [
    new Option('--model <model>', 'price every call as MODEL (opus-4.6, sonnet-4.5, claude-haiku-4-5, ...) instead of the model the log names (default: model of `cmv config`)'),
    new Option('--models <file>', 'model prices and windows overriding the built-in table (see README)'),
  ];
}

/** Where a command that makes a new session writes it instead. */
export function outputFileOptions(what: string): Option[] {
  return [new Option('-o, --output <file>', `write the ${what} log to FILE instead of a new session`), new Option('--force', 'with -o: overwrite FILE if it exists')];
}

/** Options of the resume block's size. */
export function tierOption(description: string): Option {
  // The commands check the tier themselves (their error names the budgets); the shell offers them.
  return offers(new Option('--tier <tier>', description), ['critical', 'standard', 'full']);
}

/** Sharing keeps secrets out unless told. */
export const redactOption = () => new Option('--no-redact', 'keep secrets (API keys, tokens, passwords) as logged');

export const remoteArgument = () => completes(new Argument('[remote]', 'a remote, or a URL or path git accepts (default: the only remote, or origin)'), 'remotes');
