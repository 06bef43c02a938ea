// The replaced text of an applied edit, when the project's files are not there to show it: the
// edit's result says it applied (not an error), so the file then held the new text, which the call
// still shows; the old text is gone from the file and the resumed model needs no copy of it. Decided
// in pass 2 (the result comes after the call), for calls Claude Code sends, like todo-lists.ts.

import type { SessionEntry } from '../session/entry.js';
import { contentBlocks, type JsonObject } from '../session/payload.js';
import { isStub, stubAppliedReplacedText } from './stubs.js';

/** Edit tools whose input carries old_string (MultiEdit: in each of its edits). */
const EDIT_TOOLS = new Set(['Edit', 'MultiEdit']);

export interface EditCallSeen {
  toolId: string;
  use: SessionEntry;
  /** Set once a result that is not an error answers the call. */
  applied: boolean;
}

/** Notes edit calls and whether their results say they applied (pass 1, from the entries' blocks). */
export function noteEditCalls(entry: SessionEntry, seen: Map<string, EditCallSeen>): void {
  for (const block of entry.blocks) {
    if (!block.toolId) continue;
    if (block.type === 'tool_use' && block.name && EDIT_TOOLS.has(block.name)) seen.set(block.toolId, { toolId: block.toolId, use: entry, applied: false });
    else if (block.type === 'tool_result') {
      const call = seen.get(block.toolId);
      if (call) call.applied = block.isError !== true;
    }
  }
}

/**
 * Stubs the old_string of each applied edit of a record whose strings together pass the
 * threshold (a deletion bar), where the stub is shorter; returns how many it stubbed.
 */
function stubAppliedEdits(record: JsonObject, applied: Set<string>, threshold: number): number {
  let stubbed = 0;
  const stubOne = (edit: JsonObject): void => {
    const before = edit.old_string;
    const after = edit.new_string;
    // A deletion stays: its old text is all the call says of what it removed.
    if (typeof before !== 'string' || typeof after !== 'string' || after === '' || isStub(before) || before.length + after.length <= threshold) return;
    const stub = stubAppliedReplacedText(before);
    if (stub.length >= before.length) return;
    edit.old_string = stub;
    stubbed++;
  };
  for (const block of contentBlocks(record)) {
    if (block.type !== 'tool_use' || typeof block.id !== 'string' || !applied.has(block.id) || !block.input || typeof block.input !== 'object') continue;
    const input = block.input as JsonObject;
    if (block.name === 'MultiEdit' && Array.isArray(input.edits)) {
      for (const edit of input.edits) if (edit && typeof edit === 'object') stubOne(edit as JsonObject);
    } else stubOne(input);
  }
  return stubbed;
}

/** Rewrites of the lines holding applied edits Claude Code sends with their results; each returns how many it stubbed. */
export function appliedEditRewrites(calls: Iterable<EditCallSeen>, sent: Set<SessionEntry>, threshold: number): Map<SessionEntry, (record: JsonObject) => number> {
  const byEntry = new Map<SessionEntry, Set<string>>();
  for (const call of calls) {
    if (!call.applied || !sent.has(call.use) || call.use.record !== 0) continue;
    byEntry.set(call.use, (byEntry.get(call.use) ?? new Set()).add(call.toolId));
  }
  const rewrites = new Map<SessionEntry, (record: JsonObject) => number>();
  for (const [entry, ids] of byEntry) rewrites.set(entry, (record) => stubAppliedEdits(record, ids, threshold));
  return rewrites;
}
