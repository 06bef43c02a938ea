// Reading the snapshot DAG: every named snapshot and branch, the lineage of one (its commit
// ancestry), its children, and the graph as `git log --graph` draws it. Data only; the commands
// render it.

import type { Store } from './store.js';
import { listNames, refsUnder, resolveSnapshot, type NamedRef } from './refs.js';
import { readMetas } from './read-meta.js';
import type { SnapshotMeta } from './meta.js';
import { BRANCH_REFS, SESSION_REFS, SNAPSHOT_REFS } from './names.js';

export interface SnapshotEntry {
  id: string;
  /** Names pointing at this commit (usually one; none for a commit only kept as an ancestor). */
  names: string[];
  parents: string[];
  meta: SnapshotMeta;
}

/**
 * The refs of cmv's names and sessions that name commits: walked by name, so a damaged ref (one
 * naming a blob, which `cmv list` reports and `cmv rm` removes) does not break the whole log or tree.
 */
async function cmvHeads(store: Store): Promise<string[]> {
  const refs = await refsUnder(store, SNAPSHOT_REFS.slice(0, -1), BRANCH_REFS.slice(0, -1), SESSION_REFS.slice(0, -1));
  return refs.filter((r) => r.type === 'commit').map((r) => r.ref);
}

export interface CommitNode {
  id: string;
  parents: string[];
}

export async function commitsOf(store: Store, revs: string[]): Promise<CommitNode[]> {
  if (revs.length === 0) return []; // git log without a revision would walk HEAD
  const out = await store.git.run(['log', '--format=%H %P', ...revs, '--'], 'log');
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [id, ...parents] = line.trim().split(' ');
      return { id, parents: parents.filter(Boolean) };
    });
}

function namesById(named: NamedRef[]): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const n of named) map.set(n.id, [...(map.get(n.id) ?? []), n.name]);
  return map;
}

async function entries(store: Store, nodes: CommitNode[], named: NamedRef[]): Promise<SnapshotEntry[]> {
  const metas = await readMetas(
    store,
    nodes.map((n) => n.id),
  );
  const names = namesById(named);
  return nodes.map((n) => ({ id: n.id, names: names.get(n.id) ?? [], parents: n.parents, meta: metas.get(n.id)! }));
}

/** The lineage of a snapshot (itself first, then its ancestors), or of every snapshot. */
export async function snapshotLog(store: Store, arg?: string): Promise<SnapshotEntry[]> {
  const named = await listNames(store);
  if (!arg && named.length === 0) return [];
  const revs = arg ? [(await resolveSnapshot(store, arg)).id] : await cmvHeads(store);
  return entries(store, await commitsOf(store, ['--date-order', ...revs]), named);
}

export interface SnapshotDetail extends SnapshotEntry {
  /** Ancestors, nearest first. */
  lineage: SnapshotEntry[];
  /** Commits made from this one: later snapshots of the session, branches. */
  children: SnapshotEntry[];
}

export async function showSnapshot(store: Store, arg: string): Promise<SnapshotDetail> {
  const { id } = await resolveSnapshot(store, arg);
  const named = await listNames(store);
  const all = await commitsOf(store, await cmvHeads(store));
  const lineageNodes = await commitsOf(store, ['--date-order', id]);
  const childNodes = all.filter((c) => c.parents.includes(id));
  const [self, ...lineage] = await entries(store, lineageNodes, named);
  const children = await entries(store, childNodes, named);
  return { ...self, lineage, children };
}

export interface GraphRow {
  /** The graph characters git drew for this row. */
  graph: string;
  /** The commit on this row, or none for a connector row. */
  entry?: SnapshotEntry;
}

/** The DAG as `git log --graph` draws it: snapshots, trims and branches with their lineage. */
export async function snapshotGraph(store: Store): Promise<GraphRow[]> {
  const named = await listNames(store);
  const heads = await cmvHeads(store);
  if (named.length === 0 || heads.length === 0) return [];
  const out = await store.git.run(['log', '--graph', '--date-order', '--format=%x01%H %P', ...heads, '--'], 'log');
  const rows = out.split('\n').filter((l) => l.length > 0);
  const nodes: CommitNode[] = [];
  for (const row of rows) {
    const at = row.indexOf('\x01');
    if (at < 0) continue;
    const [id, ...parents] = row
      .slice(at + 1)
      .trim()
      .split(' ');
    nodes.push({ id, parents });
  }
  const byId = new Map((await entries(store, nodes, named)).map((e) => [e.id, e]));
  return rows.map((row) => {
    const at = row.indexOf('\x01');
    if (at < 0) return { graph: row };
    return {
      graph: row.slice(0, at),
      entry: byId.get(
        row
          .slice(at + 1)
          .trim()
          .split(' ')[0],
      ),
    };
  });
}
