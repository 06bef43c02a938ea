// TodoWrite sends the whole list on every call, so a session that ticks off ten items carries the
// list ten times. Claude Code restores the todo list from the last TodoWrite it sends, and only
// from that one; each earlier call can show just the items it added or changed, and its result
// says so. Nothing is lost: folding the changes over the first list gives every list back, and the
// trim only shortens a call when that fold gives back exactly the list it replaced. Pure.

import { jsonText } from '../tokens/json-text.js';

type Json = Record<string, unknown>;

/** The first words of a shortened call's result: how a trimmed log is recognised (and left alone). */
export const SHORTENED_TODO_MARK = '[cmv: this TodoWrite shows only the items it added or changed';

/** What the result of a shortened call says before its own text. */
export const SHORTENED_TODO_NOTE = `${SHORTENED_TODO_MARK}; the earlier lists give the rest, and the last TodoWrite lists them all]`;

/** A call is shortened only when it drops at least this many items. */
const MIN_ITEMS_DROPPED = 2;

export interface TodoCall {
  toolId: string;
  /** The todos as the log records them. */
  todos: Json[];
  /** The call was shortened by an earlier trim (its result carries the note). */
  shortened: boolean;
}

/** The todos of a TodoWrite input, or undefined when it is not a list of objects. */
export function todosOf(input: unknown): Json[] | undefined {
  const todos = (input as Json | undefined)?.todos;
  if (!Array.isArray(todos) || !todos.every((t) => t && typeof t === 'object' && !Array.isArray(t))) return undefined;
  return todos as Json[];
}

/** An item's identity across calls: its id where the list has ids (1.0.x), else its text. */
function identity(item: Json): string {
  return typeof item.id === 'string' ? `id:${item.id}` : `content:${String(item.content)}`;
}

/** The list a shortened call stands for: the previous list with its changes applied, additions last. */
function applyChanges(previous: Json[], changes: Json[]): Json[] {
  const changed = new Map(changes.map((item) => [identity(item), item]));
  const known = new Set(previous.map(identity));
  return [...previous.map((item) => changed.get(identity(item)) ?? item), ...changes.filter((item) => !known.has(identity(item)))];
}

/** The items of `list` that `previous` lacks or holds otherwise, previous ones first (in its order), then additions. */
function changesBetween(previous: Json[], list: Json[]): Json[] {
  const before = new Map(previous.map((item) => [identity(item), jsonText(item)]));
  const now = new Map(list.map((item) => [identity(item), item]));
  const changed = previous.filter((item) => now.has(identity(item)) && jsonText(now.get(identity(item))) !== before.get(identity(item))).map((item) => now.get(identity(item))!);
  return [...changed, ...list.filter((item) => !before.has(identity(item)))];
}

function unique(list: Json[]): boolean {
  return new Set(list.map(identity)).size === list.length;
}

/**
 * The calls to shorten, in the order Claude Code sends them: every call but the first and the
 * last may show only its changes. Returns the todos each shortened call keeps, by tool id; calls
 * already shortened by an earlier trim come back with the same todos (so a second trim changes nothing).
 */
export function planTodoChanges(calls: readonly TodoCall[]): Map<string, Json[]> {
  const plan = new Map<string, Json[]>();
  let previous: Json[] | undefined;
  calls.forEach((call, i) => {
    // The whole list this call stands for.
    const list = call.shortened && previous ? applyChanges(previous, call.todos) : call.todos;
    const last = i === calls.length - 1;
    if (previous && !last && unique(previous) && unique(list)) {
      const changes = changesBetween(previous, list);
      const exact = jsonText(applyChanges(previous, changes)) === jsonText(list);
      if (exact && changes.length > 0 && list.length - changes.length >= MIN_ITEMS_DROPPED) plan.set(call.toolId, changes);
    }
    previous = list;
  });
  return plan;
}
