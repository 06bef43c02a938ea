// The command tree as plain data for the completion generators, read from commander itself so
// the completions can never drift from the commands.

import type { Argument, Command, Option } from 'commander';
import { dynamicKindOf, offeredWordsOf, type DynamicKind } from './kinds.js';

export interface OptionSpec {
  short?: string;
  long?: string;
  description: string;
  /** Takes a value (`--threshold <chars>`). */
  takesValue: boolean;
  valueName?: string;
  choices?: string[];
  /** The value is a file or folder (`<file>`, `<dir>`): only then are file names offered. */
  files: boolean;
  /** Words listed at completion time. */
  dynamic?: DynamicKind;
}

export interface ArgumentSpec {
  name: string;
  required: boolean;
  variadic: boolean;
  choices?: string[];
  /** A session argument also takes `latest`, and paths. */
  kind: 'session' | 'path' | 'choice' | 'text';
  /** Words listed at completion time (session ids, snapshot names, remotes, config keys). */
  dynamic?: DynamicKind;
}

export interface CommandSpec {
  name: string;
  /** Words from the root: [] for cmv itself, ['hook', 'install'] for `cmv hook install`. */
  path: string[];
  description: string;
  options: OptionSpec[];
  args: ArgumentSpec[];
  commands: CommandSpec[];
}

const SESSION_ARGS = /^(session|original|trimmed|target)$/;
const PATH_ARGS = /(path|file|dir)/;

function optionSpec(option: Option): OptionSpec {
  const valueName = /<([^>]+)>|\[([^\]]+)\]/.exec(option.flags);
  return {
    short: option.short,
    long: option.long,
    description: option.description,
    takesValue: option.required || option.optional,
    valueName: valueName ? (valueName[1] ?? valueName[2]) : undefined,
    choices: option.argChoices ?? offeredWordsOf(option),
    files: valueName !== null && PATH_ARGS.test(valueName[1] ?? valueName[2] ?? ''),
    dynamic: dynamicKindOf(option),
  };
}

function argumentSpec(argument: Argument): ArgumentSpec {
  const name = argument.name();
  const kind = argument.argChoices ? 'choice' : SESSION_ARGS.test(name) ? 'session' : PATH_ARGS.test(name) ? 'path' : 'text';
  const dynamic = dynamicKindOf(argument) ?? (kind === 'session' ? 'sessions' : undefined);
  return { name, required: argument.required, variadic: argument.variadic, choices: argument.argChoices, kind: dynamic && kind !== 'session' ? 'text' : kind, dynamic };
}

function isHidden(command: Command): boolean {
  return (command as unknown as { _hidden?: boolean })._hidden === true;
}

export function commandSpec(command: Command, path: string[] = []): CommandSpec {
  const options = command.options.filter((o) => !o.hidden).map(optionSpec);
  options.push({ short: '-h', long: '--help', description: 'display help', takesValue: false, files: false });
  return {
    name: command.name(),
    path,
    description: command.description(),
    options,
    args: command.registeredArguments.map(argumentSpec),
    commands: command.commands.filter((c) => !isHidden(c)).map((c) => commandSpec(c, [...path, c.name()])),
  };
}

/** Every command of the tree, the root first. */
export function allCommands(spec: CommandSpec): CommandSpec[] {
  return [spec, ...spec.commands.flatMap(allCommands)];
}

export function optionWords(spec: CommandSpec): string[] {
  return spec.options.flatMap((o) => [o.short, o.long].filter((w): w is string => !!w));
}
