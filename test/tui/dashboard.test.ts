// The dashboard as a user drives it, rendered by ink-testing-library over a real Claude config
// dir (copies of the sample sessions): frames asserted, keys sent through stdin.

import './tui-env.js';
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createElement } from 'react';
import { render } from 'ink-testing-library';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App, type DashboardExit } from '../../src/tui/app.js';
import { defaultSources } from '../../src/tui/sources.js';
import { defaultConfig } from '../../src/config/config-keys.js';
import { openStore } from '../../src/store/store.js';
import { takeSnapshot } from '../../src/store/snapshot.js';
import { sampleConfigDir, sessionFiles, type SampleSession } from './sample-config-dir.js';

const ESC = '\u001b';
const keys = { down: `${ESC}[B`, up: `${ESC}[A`, tab: '\t', enter: '\r', escape: ESC };
let scratch: string;
let configDir: string;
let samples: SampleSession[];
const saved = { CMV_HOME: process.env.CMV_HOME, CLAUDE_CONFIG_DIR: process.env.CLAUDE_CONFIG_DIR };

beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'cmv-tui-'));
  configDir = join(scratch, 'claude');
  samples = sampleConfigDir(configDir);
  process.env.CMV_HOME = join(scratch, 'data');
  process.env.CLAUDE_CONFIG_DIR = configDir; // branches are written to the first config dir
});

afterEach(() => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  rmSync(scratch, { recursive: true, force: true });
});

async function until(frame: () => string | undefined, test: (text: string) => boolean, ms = 15_000): Promise<string> {
  const started = Date.now();
  for (;;) {
    const text = frame() ?? '';
    if (test(text)) return text;
    if (Date.now() - started > ms) throw new Error(`frame never matched; last frame:\n${text}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

function start(pollMs = 100, rows = 32) {
  const exits: DashboardExit[] = [];
  const sources = defaultSources(defaultConfig(), [configDir]);
  const app = render(createElement(App, { sources, pollMs, onExit: (r: DashboardExit) => exits.push(r), size: { columns: 100, rows } }));
  return { app, exits, frame: () => app.lastFrame() };
}

const press = async (app: ReturnType<typeof render>, ...sequence: string[]) => {
  for (const key of sequence) {
    app.stdin.write(key);
    await new Promise((r) => setTimeout(r, 30));
  }
};

describe('the dashboard', () => {
  it('lists projects and sessions, and details the selected one: tokens, trim preview, break-even, graph', async () => {
    const { app, frame } = start(100, 60);
    const text = await until(frame, (t) => t.includes('Graph summary') && t.includes('Tool results by tool') && !t.includes('pricing the session'));
    expect(text).toContain('Projects (3)');
    expect(text).toContain('cmv 3 sessions');
    const selected = samples.find((s) => text.includes(`› ${s.id.slice(0, 8)}`) || text.includes(`›○ ${s.id.slice(0, 8)}`) || text.includes(`›● ${s.id.slice(0, 8)}`));
    expect(selected, text).toBeDefined();
    expect(text).toMatch(/Tokens on resume: [\d,]+/);
    expect(text).toMatch(/tool results +█+/);
    expect(text).toMatch(/Trim preview[\s\S]*→ [\d,]+ tokens -\d+(\.\d)?%/);
    expect(text).toContain('Break-even of a trim now');
    app.unmount();
  });

  it('moves between panes and projects with Tab and j/k, filters with /, and shows help with ?', async () => {
    const { app, frame } = start();
    await until(frame, (t) => t.includes('Projects (3)'));
    const firstTitle = /Sessions · (\S+)/.exec(frame()!)![1];
    await press(app, keys.tab, keys.tab); // tree -> detail -> projects
    await until(frame, (t) => /▸ Projects/.test(t));
    await press(app, 'j');
    const secondTitle = /Sessions · (\S+)/.exec(await until(frame, (t) => !t.includes(`Sessions · ${firstTitle}`)))![1];
    expect(secondTitle).not.toBe(firstTitle);

    await press(app, '/', ...'csv2'.split(''));
    const filtered = await until(frame, (t) => t.includes('Projects (1)'));
    expect(filtered).toContain('/csv2▏');
    expect(filtered).toMatch(/Sessions · …?\S*\/csv2md/);
    await press(app, keys.escape);
    await until(frame, (t) => t.includes('Projects (3)'));

    await press(app, '?');
    const help = await until(frame, (t) => t.includes('cmv dashboard — keys'));
    expect(help).toContain('delete the selection (asks first)');
    await press(app, 'x');
    await until(frame, (t) => t.includes('Projects (3)'));
    app.unmount();
  });

  it('asks before deleting, and deletes nothing on any answer but y', async () => {
    const { app, frame } = start();
    await until(frame, (t) => t.includes('Projects (3)'));
    await press(app, 'd');
    expect(await until(frame, (t) => t.includes('[y/N]'))).toMatch(/Delete session \w{8}\? \(moved to cmv's trash\) \[y\/N\]/);
    await press(app, 'n');
    await until(frame, (t) => t.includes('nothing deleted'));
    expect(sessionFiles(configDir)).toHaveLength(3);
    await press(app, 'd', 'y');
    await until(frame, (t) => t.includes('moved ') && t.includes('Projects (2)'));
    expect(sessionFiles(configDir)).toHaveLength(2);
    app.unmount();
  });

  it('trims the selected session into a new session shown under it', async () => {
    const { app, frame, exits } = start();
    await until(frame, (t) => t.includes('Projects (3)'));
    await press(app, 't');
    const text = await until(frame, (t) => t.includes('trimmed into new session'));
    const child = /trimmed into new session (\w{8})/.exec(text)![1];
    await until(frame, (t) => t.includes(`  ○ ${child}`) || t.includes(`  ● ${child}`));
    expect(sessionFiles(configDir)).toHaveLength(4);
    await press(app, 'q');
    expect(exits[0].notes).toEqual([expect.stringMatching(new RegExp(`^cd \\S+ && claude --resume ${child}`))]);
  });

  it('b on a session without a snapshot says how to take one', async () => {
    const { app, frame } = start();
    await until(frame, (t) => t.includes('Projects (3)'));
    await press(app, keys.tab, 'b');
    await until(frame, (t) => /session \w{8} has no snapshot to branch: press s to take one, then b/.test(t));
    app.unmount();
  });

  it('b on a session branches its newest snapshot', async () => {
    // The snapshot is taken before the dashboard starts: only the branch runs under its eyes.
    const first = sessionFiles(configDir)
      .map((f) => join(configDir, 'projects', f))
      .sort((x, y) => statSync(y).mtimeMs - statSync(x).mtimeMs)[0];
    const taken = await takeSnapshot(await openStore(), first, { name: 'before-b' });
    const { app, frame } = start();
    await until(frame, (t) => t.includes('Projects (3)'));
    await press(app, keys.tab);
    await until(frame, (t) => t.includes('◆ before-b'));
    await press(app, 'b');
    await until(frame, (t) => t.includes('branch before-b-branch-1 written as session'), 60_000);
    expect(taken.name).toBe('before-b');
    app.unmount();
  }, 120_000);

  it('prints no resume command on exit for a session deleted during the run', async () => {
    const { app, frame, exits } = start();
    await until(frame, (t) => t.includes('Projects (3)'));
    await press(app, 't');
    const child = /trimmed into new session (\w{8})/.exec(await until(frame, (t) => t.includes('trimmed into new session')))![1];
    await until(frame, (t) => t.includes(`  ○ ${child}`) || t.includes(`  ● ${child}`));
    // Select the new session (under the one it was trimmed from) and delete it.
    await press(app, 'j');
    await until(frame, (t) => new RegExp(`›\\s*[○●] ${child}`).test(t)); // ● while it counts as just written
    await press(app, 'd', 'y');
    await until(frame, (t) => t.includes('moved '));
    await press(app, 'q');
    expect(exits[0].notes).toEqual([]);
  }, 120_000);

  it('marks a session live while its log grows, and an idle poll draws nothing', async () => {
    const { app, frame } = start(50, 60);
    await until(frame, (t) => t.includes('Graph summary') && !t.includes('pricing the session') && !t.includes('building the graph'));
    // Let the copies age out of "written just now" before watching the polls.
    const target = samples[0];
    await new Promise((r) => setTimeout(r, 400));
    const settled = app.frames.length;
    await new Promise((r) => setTimeout(r, 500)); // ten polls, nothing changed
    expect(app.frames.length).toBe(settled);
    appendFileSync(target.path, `${JSON.stringify({ type: 'last-prompt', lastPrompt: 'more', sessionId: target.id })}\n`);
    await until(frame, (t) => t.includes(`● ${target.id.slice(0, 8)}`));
    app.unmount();
  });

  it.skipIf(spawnSync('git', ['--version']).status !== 0)('snapshots with s, branches the snapshot with b, and Enter on a snapshot branches and resumes it', async () => {
    const { app, frame, exits } = start();
    await until(frame, (t) => t.includes('Projects (3)'));
    await press(app, 's');
    const name = /snapshot (\S+) taken/.exec(await until(frame, (t) => /snapshot \S+ taken/.test(t)))![1];
    await until(frame, (t) => t.includes(`◆ ${name}`));
    await press(app, 'j');
    expect(await until(frame, (t) => t.includes(`snapshot ${name}`) && t.includes('Enter: branch it and resume'))).toContain('of session');
    await press(app, 'b');
    const branched = await until(frame, (t) => /branch \S+ written as session \w{8}/.test(t));
    const child = /written as session (\w{8})/.exec(branched)![1];
    // The branch sits under the snapshot, and the session it was written as under the branch.
    await until(frame, (t) => {
      const rows = t.split('\n');
      const at = rows.findIndex((l) => l.includes('-branch-1'));
      return at > 0 && new RegExp(`[○●] ${child.slice(0, 7)}`).test(rows[at + 1] ?? ''); // ● while just written
    });
    await press(app, keys.enter); // still on the snapshot: Enter branches it again and resumes that
    await until(
      () => String(exits.length),
      (t) => t === '1',
    );
    expect(exits[0].resume?.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(exits[0].resume?.sessionId.startsWith(child)).toBe(false);
    expect(sessionFiles(configDir)).toHaveLength(5);
  });

  it('Enter on a session exits with it to resume; q exits with nothing', async () => {
    const one = start();
    await until(one.frame, (t) => t.includes('Projects (3)'));
    await press(one.app, keys.enter);
    expect(one.exits).toHaveLength(1);
    const resume = one.exits[0].resume!;
    expect(samples.map((s) => s.id)).toContain(resume.sessionId);
    expect(resume.cwd).toBe(samples.find((s) => s.id === resume.sessionId)!.cwd);
    const two = start();
    await until(two.frame, (t) => t.includes('Projects (3)'));
    await press(two.app, 'q');
    expect(two.exits).toEqual([{ notes: [] }]);
    expect(existsSync(join(scratch, 'data', 'trash'))).toBe(false);
  });
});
