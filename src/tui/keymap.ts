// Keys to intents. Pure, so the bindings are tested without a terminal; the help overlay lists
// KEY_HELP, so what it says is what the keys do.

import type { Key } from 'ink';

export type Intent =
  | { kind: 'move'; delta: number }
  | { kind: 'focus'; delta: 1 | -1 }
  | { kind: 'enter' }
  | { kind: 'snapshot' }
  | { kind: 'trim' }
  | { kind: 'branch' }
  | { kind: 'delete' }
  | { kind: 'filter' }
  | { kind: 'help' }
  | { kind: 'quit' }
  | { kind: 'escape' }
  | { kind: 'yes' }
  | { kind: 'no' }
  | { kind: 'type'; text: string }
  | { kind: 'erase' }
  | { kind: 'none' };

export type KeyMode = 'normal' | 'filter' | 'help' | 'confirm';

export const KEY_HELP: [string, string][] = [
  ['↑ ↓  j k', 'move in the focused pane (the detail pane scrolls)'],
  ['PgUp PgDn', 'move a page'],
  ['Tab  Shift-Tab', 'next / previous pane'],
  ['Enter', 'resume: a session, or a snapshot (branched first); cmv prints the command'],
  ['s', 'snapshot the selected session'],
  ['t', 'trim the selected session into a new session'],
  ['b', 'branch the selected snapshot'],
  ['d', 'delete the selection (asks first)'],
  ['/', 'filter projects and sessions'],
  ['?', 'this help'],
  ['q  Ctrl-C', 'quit'],
];

/**
 * Keys that arrive together (typed fast, pasted, or sent by tmux in one write) reach Ink as one
 * input string: split it back into keys, one character each.
 */
export function splitKeys(input: string, key: Key): [string, Key][] {
  if (input.length <= 1 || key.ctrl || key.meta || input.includes('\u001b')) return [[input, key]];
  return [...input].map((ch) => [ch, { ...key, tab: ch === '\t', return: ch === '\r', backspace: ch === '\b' || ch === '\u007f' }]);
}

export function intentOf(input: string, key: Key, mode: KeyMode): Intent {
  if (key.ctrl && input === 'c') return { kind: 'quit' };
  if (mode === 'filter') {
    if (key.escape) return { kind: 'escape' };
    if (key.return) return { kind: 'enter' };
    if (key.backspace || key.delete) return { kind: 'erase' };
    if (key.upArrow) return { kind: 'move', delta: -1 };
    if (key.downArrow) return { kind: 'move', delta: 1 };
    return input && !key.ctrl && !key.meta ? { kind: 'type', text: input } : { kind: 'none' };
  }
  if (mode === 'confirm') {
    if (input === 'y' || input === 'Y') return { kind: 'yes' };
    return { kind: 'no' };
  }
  if (mode === 'help') return input === 'q' ? { kind: 'quit' } : { kind: 'help' };
  if (key.upArrow || input === 'k') return { kind: 'move', delta: -1 };
  if (key.downArrow || input === 'j') return { kind: 'move', delta: 1 };
  if (key.pageUp) return { kind: 'move', delta: -10 };
  if (key.pageDown) return { kind: 'move', delta: 10 };
  if (key.tab) return { kind: 'focus', delta: key.shift ? -1 : 1 };
  if (key.leftArrow || input === 'h') return { kind: 'focus', delta: -1 };
  if (key.rightArrow || input === 'l') return { kind: 'focus', delta: 1 };
  if (key.return) return { kind: 'enter' };
  if (key.escape) return { kind: 'escape' };
  switch (input) {
    case 's':
      return { kind: 'snapshot' };
    case 't':
      return { kind: 'trim' };
    case 'b':
      return { kind: 'branch' };
    case 'd':
      return { kind: 'delete' };
    case '/':
      return { kind: 'filter' };
    case '?':
      return { kind: 'help' };
    case 'q':
      return { kind: 'quit' };
    default:
      return { kind: 'none' };
  }
}
