// `cmv log [NAME]`: the lineage of a snapshot (itself, then what it grew or was branched from),
// or every stored snapshot, newest first.

import { openStore } from '../../store/store.js';
import { snapshotLog, type SnapshotEntry } from '../../store/history.js';
import type { Output } from '../output.js';
import { describeCommit } from './list.js';

export async function logCommand(name: string | undefined, out: Output): Promise<void> {
  const store = await openStore();
  const entries = await snapshotLog(store, name);
  out.render(entries, renderLog, (list) => list.map(entryJson));
}

export function entryJson(e: SnapshotEntry): unknown {
  return { id: e.id, names: e.names, parents: e.parents, kind: e.meta.kind, createdAt: e.meta.createdAt, message: e.meta.message ?? null, tags: e.meta.tags, meta: e.meta };
}

export function renderLog(entries: SnapshotEntry[]): string {
  if (entries.length === 0) return 'no snapshots yet: `cmv snapshot <session>` takes one';
  return entries.map((e) => describeCommit(e.id, e.names, e.meta)).join('\n');
}
