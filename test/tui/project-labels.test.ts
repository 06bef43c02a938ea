// Projects whose whole path does not fit are told apart by their endings, never by a bare last
// folder that several share ("cli" three times) or that says nothing ("1", "2").

import { describe, expect, it } from 'vitest';
import { distinctSuffixes } from '../../src/tui/data/projects.js';
import { projectLines } from '../../src/tui/components/projects-pane.js';
import type { ProjectGroup } from '../../src/tui/data/projects.js';

describe('project labels', () => {
  it('are the shortest ending of two or more folders that no other project has', () => {
    const paths = ['/home/me/work/a/cli', '/home/me/work/b/cli', '/srv/old/work/a/cli', '/tmp/runs/1', '/tmp/runs/2', '/x'];
    const short = distinctSuffixes(paths);
    expect(paths.map((p) => short.get(p))).toEqual(['me/work/a/cli', 'b/cli', 'old/work/a/cli', 'runs/1', 'runs/2', '/x']);
  });

  it('show those endings in a narrow projects pane', () => {
    const paths = ['/home/me/src/alpha/cli', '/home/me/src/beta/cli', '/home/me/src/gamma/cli'];
    const short = distinctSuffixes(paths);
    const projects = paths.map((p, i) => ({ key: p, label: p, short: short.get(p)!, cwd: p, sessions: [], lastModifiedMs: i, live: false }) as ProjectGroup);
    const text = projectLines({ projects, selected: 0, focused: true, width: 22, height: 10, now: 10 }).map((l) => l.segments.map((s) => s.text).join(''));
    const labels = text.map((t) => t.slice(3, 9).trim());
    expect(new Set(labels).size).toBe(3);
    expect(labels).toEqual(['alpha…', 'beta/…', 'gamma…']);
  });
});
