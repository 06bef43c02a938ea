// Projects whose whole path does not fit are told apart by their endings, never by a bare last
// folder that several share ("cli" three times) or that says nothing ("1", "2").

import './tui-env.js';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createElement } from 'react';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../src/tui/app.js';
import { defaultSources } from '../../src/tui/sources.js';
import { defaultConfig } from '../../src/config/config-keys.js';
import { projectFolderName } from '../../src/session/locate.js';
import { SAMPLES } from './sample-config-dir.js';
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

describe('the session tree title', () => {
  let scratch: string;
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  it('names its project by the ending that tells it apart, not by a last folder others share', async () => {
    scratch = mkdtempSync(join(tmpdir(), 'cmv-labels-'));
    const text = readFileSync(join(SAMPLES, 'short.jsonl'), 'utf8');
    const id = /"sessionId":"([^"]+)"/.exec(text)![1];
    const cwd = /"cwd":"([^"]+)"/.exec(text)![1];
    ['/work/alpha/cli', '/work/beta/cli'].forEach((dir, i) => {
      const folder = join(scratch, 'claude', 'projects', projectFolderName(dir));
      mkdirSync(folder, { recursive: true });
      const other = `${id.slice(0, -1)}${i}`;
      writeFileSync(join(folder, `${other}.jsonl`), text.split(cwd).join(dir).split(id).join(other));
    });
    const app = render(createElement(App, { sources: defaultSources(defaultConfig(), [join(scratch, 'claude')]), pollMs: 100, onExit: () => {}, size: { columns: 120, rows: 20 } }));
    const started = Date.now();
    while (!(app.lastFrame() ?? '').includes('Projects (2)') && Date.now() - started < 15_000) await new Promise((r) => setTimeout(r, 25));
    const title = /Sessions · (\S+)/.exec(app.lastFrame()!)?.[1];
    app.unmount();
    expect(['alpha/cli', 'beta/cli']).toContain(title);
  });
});
