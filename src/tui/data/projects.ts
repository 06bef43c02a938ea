// Sessions grouped by project (the cwd their lines name, else Claude Code's project folder),
// most recently active project first. Pure.

import type { IndexedSession } from './session-index.js';

export interface ProjectGroup {
  key: string;
  /** What the pane shows: the cwd (the pane cuts it from the left), else the folder name. */
  label: string;
  /**
   * The label short enough to tell projects apart when the whole does not fit: its last two
   * folders, or more while another project ends the same ("a/cli" and "b/cli", not "cli" twice).
   */
  short: string;
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
      group = { key, label: shortLabel(s.cwd, s.projectFolder), short: '', cwd: s.cwd, sessions: [], lastModifiedMs: 0, live: false };
      groups.set(key, group);
    }
    group.sessions.push(s);
    group.lastModifiedMs = Math.max(group.lastModifiedMs, s.modifiedMs);
    group.live ||= s.live;
  }
  for (const g of groups.values()) g.sessions.sort((a, b) => b.modifiedMs - a.modifiedMs || a.path.localeCompare(b.path));
  const shorts = distinctSuffixes([...groups.values()].map((g) => g.label));
  for (const g of groups.values()) g.short = shorts.get(g.label) ?? g.label;
  return [...groups.values()].sort((a, b) => b.lastModifiedMs - a.lastModifiedMs || a.key.localeCompare(b.key));
}

/** For each path, its shortest ending of at least two folders that no other path ends with. */
export function distinctSuffixes(paths: string[]): Map<string, string> {
  const parts = new Map(paths.map((p) => [p, p.split('/').filter(Boolean)]));
  const ending = (segments: string[], n: number) => segments.slice(-n).join('/');
  const out = new Map<string, string>();
  for (const [path, segments] of parts) {
    let n = Math.min(2, segments.length);
    const clashes = (k: number) => [...parts].some(([other, o]) => other !== path && o.length >= k && ending(o, k) === ending(segments, k));
    while (n < segments.length && clashes(n)) n++;
    out.set(path, n >= segments.length ? path : ending(segments, n));
  }
  return out;
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
