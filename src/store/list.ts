// `cmv list`: every named snapshot and branch, flat, oldest first (also what the dashboard's
// session tree shows).

import type { Store } from './store.js';
import { listNames } from './refs.js';
import { readMetas } from './read-meta.js';
import { commitsOf } from './history.js';
import type { RefKind } from './names.js';

export interface SnapshotListItem {
  name: string;
  kind: RefKind;
  id: string;
  /** The commit it grew from or was branched from. */
  parent: string | null;
  createdAt: string;
  sessionId?: string;
  cwd?: string;
  message?: string;
  tags: string[];
  lines: number;
  bytes: number;
  /** Context size the API last reported for the session. */
  contextTokens: number;
  growth: 'first' | 'append' | 'rewrite';
  /** A branch: the snapshot it was made from, and whether it was trimmed. */
  from?: string;
  trimmed?: boolean;
  /** A branch: the session it was written as. */
  branchSessionId?: string;
}

export async function listSnapshots(store: Store): Promise<SnapshotListItem[]> {
  const named = await listNames(store);
  if (named.length === 0) return [];
  const ids = [...new Set(named.map((n) => n.id))];
  const metas = await readMetas(store, ids);
  // A branch belongs to the session its snapshot was taken of.
  const fromIds = [...new Set([...metas.values()].flatMap((m) => (m.branch && !metas.has(m.branch.from.id) ? [m.branch.from.id] : [])))];
  for (const [id, meta] of await readMetas(store, fromIds)) metas.set(id, meta);
  const parents = new Map((await commitsOf(store, ['--no-walk', ...ids])).map((c) => [c.id, c.parents[0] ?? null]));
  const byId = new Map(named.map((n) => [n.id, n.name]));
  return named
    .map((n): SnapshotListItem => {
      const meta = metas.get(n.id)!;
      return {
        name: n.name,
        kind: n.kind,
        id: n.id,
        parent: parents.get(n.id) ?? null,
        createdAt: meta.createdAt,
        sessionId: meta.branch ? metas.get(meta.branch.from.id)?.source.sessionId : meta.source.sessionId,
        cwd: meta.source.cwd,
        message: meta.message,
        tags: meta.tags,
        lines: meta.facts.lines,
        bytes: meta.facts.bytes,
        contextTokens: meta.facts.tokens.context,
        growth: meta.growth,
        from: meta.branch ? (meta.branch.from.name ?? byId.get(meta.branch.from.id) ?? meta.branch.from.id.slice(0, 12)) : undefined,
        trimmed: meta.branch?.trimmed,
        branchSessionId: meta.kind === 'branch' ? meta.source.sessionId : undefined,
      };
    })
    .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.name < b.name ? -1 : 1));
}
