// The session tree of one project as rows: each session, under it the snapshots taken of it and
// the in-place trims made of it; under a snapshot its branches, and under a branch the session it
// was written as; a trim into a new session nests that session under its source. Pure.

import type { IndexedSession } from './data/session-index.js';
import type { SnapshotItem } from './data/snapshots.js';
import type { TrimRecord } from '../hooks/trim-journal.js';

export type TreeRow =
  | { kind: 'session'; key: string; depth: number; session: IndexedSession }
  | { kind: 'snapshot'; key: string; depth: number; snapshot: SnapshotItem }
  | { kind: 'trim'; key: string; depth: number; trim: TrimRecord };

export interface TreeInput {
  sessions: IndexedSession[];
  snapshots: SnapshotItem[];
  trims: TrimRecord[];
}

export function buildTree({ sessions, snapshots, trims }: TreeInput): TreeRow[] {
  const byPath = new Map(sessions.map((s) => [s.path, s]));
  const byId = new Map(sessions.map((s) => [s.id, s]));
  // Sessions that are someone's child: written by a dashboard trim, or as a branch.
  const trimParent = new Map<string, string>();
  for (const t of trims) if (t.output && byPath.has(t.output) && byPath.has(t.path) && t.output !== t.path) trimParent.set(t.output, t.path);
  const branchSessions = new Set(snapshots.filter((n) => n.kind === 'branch' && n.branchSessionId && byId.has(n.branchSessionId)).map((n) => n.branchSessionId));
  const snapshotNames = new Set(snapshots.filter((n) => n.kind === 'snapshot').map((n) => n.name));

  const rows: TreeRow[] = [];
  const seen = new Set<string>();
  const visitSnapshot = (snap: SnapshotItem, depth: number) => {
    if (seen.has(`n:${snap.name}`)) return;
    seen.add(`n:${snap.name}`);
    rows.push({ kind: 'snapshot', key: `n:${snap.name}`, depth, snapshot: snap });
    for (const branch of snapshots.filter((n) => n.kind === 'branch' && n.from === snap.name)) visitSnapshot(branch, depth + 1);
    const written = snap.kind === 'branch' && snap.branchSessionId ? byId.get(snap.branchSessionId) : undefined;
    if (written) visitSession(written, depth + 1);
  };
  const visitSession = (session: IndexedSession, depth: number) => {
    if (seen.has(session.path)) return;
    seen.add(session.path);
    rows.push({ kind: 'session', key: `s:${session.path}`, depth, session });
    for (const snap of snapshots) {
      const own = snap.sessionId === session.id && (snap.kind === 'snapshot' || !snap.from || !snapshotNames.has(snap.from));
      if (own) visitSnapshot(snap, depth + 1);
    }
    for (const t of trims.filter((r) => r.path === session.path && !r.output)) rows.push({ kind: 'trim', key: `t:${t.path}:${t.at}`, depth: depth + 1, trim: t });
    for (const child of sessions.filter((s) => trimParent.get(s.path) === session.path)) visitSession(child, depth + 1);
  };
  for (const s of sessions) if (!trimParent.has(s.path) && !branchSessions.has(s.id)) visitSession(s, 0);
  for (const s of sessions) visitSession(s, 0); // a child whose parent is elsewhere: never lose a session
  return rows;
}
