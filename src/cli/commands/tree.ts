// `cmv tree`: the snapshot DAG drawn like `git log --graph`: snapshots, trims and branches with
// their sizes and token counts.

import { openStore } from '../../store/store.js';
import { snapshotGraph, type GraphRow } from '../../store/history.js';
import type { Output } from '../output.js';
import { describeCommit } from './list.js';

export async function treeCommand(out: Output): Promise<void> {
  const store = await openStore();
  const rows = await snapshotGraph(store);
  out.render(rows, renderTree, (list) => ({
    nodes: list
      .filter((r) => r.entry)
      .map((r) => ({
        id: r.entry!.id,
        names: r.entry!.names,
        parents: r.entry!.parents,
        kind: r.entry!.meta.kind,
        lines: r.entry!.meta.facts.lines,
        bytes: r.entry!.meta.facts.bytes,
        contextTokens: r.entry!.meta.facts.tokens.context,
        createdAt: r.entry!.meta.createdAt,
      })),
    graph: list.map((r) => (r.entry ? `${r.graph}${r.entry.id}` : r.graph)),
  }));
}

export function renderTree(rows: GraphRow[]): string {
  if (rows.length === 0) return 'no snapshots yet: `cmv snapshot <session>` takes one';
  return rows.map((r) => (r.entry ? `${r.graph}${describeCommit(r.entry.id, r.entry.names, r.entry.meta)}` : r.graph)).join('\n');
}
