// `cmv list`: every named snapshot and branch, flat, oldest first (also what the dashboard's
// session tree shows).

import type { Store } from './store.js';
import { listNames } from './refs.js';
import { readMetasTolerant } from './read-meta.js';
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

/**
 * Every readable snapshot and branch. A name that does not lead to a sound snapshot (a ref to a
 * blob, an unreadable meta.json) is left out and described in `problems`: `cmv rm` removes it,
 * `cmv fsck` reports it.
 */
export async function listSnapshots(store: Store, problems: string[] = []): Promise<SnapshotListItem[]> {
  const all = await listNames(store);
  for (const n of all) if (n.type !== undefined && n.type !== 'commit') problems.push(`"${n.name}" names a ${n.type}, not a snapshot: \`cmv rm ${n.name}\` removes it`);
  const found = all.filter((n) => n.type === undefined || n.type === 'commit');
  if (found.length === 0) return [];
  const { metas, unreadable } = await readMetasTolerant(store, [...new Set(found.map((n) => n.id))]);
  for (const n of found) if (unreadable.has(n.id)) problems.push(`"${n.name}" cannot be read (its meta.json ${unreadable.get(n.id)}): \`cmv rm ${n.name}\` removes it`);
  const named = found.filter((n) => metas.has(n.id));
  if (named.length === 0) return [];
  const ids = [...new Set(named.map((n) => n.id))];
  // A branch belongs to the session its snapshot was taken of.
  const fromIds = [...new Set([...metas.values()].flatMap((m) => (m.branch && !metas.has(m.branch.from.id) ? [m.branch.from.id] : [])))];
  for (const [id, meta] of (await readMetasTolerant(store, fromIds)).metas) metas.set(id, meta);
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
