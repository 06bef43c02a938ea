// Sessions grouped by project (the cwd their lines name, else Claude Code's project folder),
// most recently active project first. Pure.

import type { IndexedSession } from './session-index.js';

export interface ProjectGroup {
  key: string;
  /** What the pane shows: the cwd (the pane cuts it from the left), else the folder name. */
  label: string;
  cwd?: string;
  sessions: IndexedSession[];
  lastModifiedMs: number;
  live: boolean;
}

function shortLabel(cwd: string | undefined, folder: string): string {
  return cwd ?? folder;
}

export function groupByProject(sessions: IndexedSession[]): ProjectGroup[] {
  const groups = new Map<string, ProjectGroup>();
  for (const s of sessions) {
    const key = s.cwd ?? s.projectFolder;
    let group = groups.get(key);
    if (!group) {
      group = { key, label: shortLabel(s.cwd, s.projectFolder), cwd: s.cwd, sessions: [], lastModifiedMs: 0, live: false };
      groups.set(key, group);
    }
    group.sessions.push(s);
    group.lastModifiedMs = Math.max(group.lastModifiedMs, s.modifiedMs);
    group.live ||= s.live;
  }
  for (const g of groups.values()) g.sessions.sort((a, b) => b.modifiedMs - a.modifiedMs || a.path.localeCompare(b.path));
  return [...groups.values()].sort((a, b) => b.lastModifiedMs - a.lastModifiedMs || a.key.localeCompare(b.key));
}

/** Projects, and within them sessions, whose text contains `filter` (case-insensitive). */
export function filterProjects(groups: ProjectGroup[], filter: string): ProjectGroup[] {
  const needle = filter.trim().toLowerCase();
  if (!needle) return groups;
  const out: ProjectGroup[] = [];
  for (const g of groups) {
    if (g.key.toLowerCase().includes(needle)) {
      out.push(g);
      continue;
    }
    const sessions = g.sessions.filter((s) => [s.id, s.firstPrompt ?? '', s.model ?? ''].some((t) => t.toLowerCase().includes(needle)));
    if (sessions.length) out.push({ ...g, sessions });
  }
  return out;
}
