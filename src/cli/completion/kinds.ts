// What a shell completes for an argument or an option value that has no fixed choices: words cmv
// lists at completion time (`cmv __complete <kind>`), so snapshot names and session ids are
// offered as they are now, not as they were when the script was generated.

import type { Argument, Option } from 'commander';

export const DYNAMIC_KINDS = ['sessions', 'snapshots', 'remotes', 'config-keys'] as const;
export type DynamicKind = (typeof DYNAMIC_KINDS)[number];

const kinds = new WeakMap<Argument | Option, DynamicKind>();

/** Marks an argument or option as completed with the words of `kind`. */
export function completes<T extends Argument | Option>(target: T, kind: DynamicKind): T {
  kinds.set(target, kind);
  return target;
}

export function dynamicKindOf(target: Argument | Option): DynamicKind | undefined {
  return kinds.get(target);
}

const words = new WeakMap<Option, string[]>();

/**
 * Fixed words a shell offers for an option whose value the command itself checks (with its own
 * message and hint), where commander's choices would check it first.
 */
export function offers(option: Option, list: string[]): Option {
  words.set(option, list);
  return option;
}

export function offeredWordsOf(option: Option): string[] | undefined {
  return words.get(option);
}
