// The dashboard in a real terminal: `cmv` started in tmux (a private server), driven with
// send-keys and read with capture-pane. Also checks that an idle poll writes nothing to the
// terminal (pipe-pane records every byte), that a resize redraws cleanly, and colour rules.
// Skipped when tmux is not installed.

import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, buildIfStale } from '../helpers/built-cli.js';
import { sampleConfigDir, type SampleSession } from '../tui/sample-config-dir.js';

const HAS_TMUX = spawnSync('sh', ['-c', 'command -v tmux']).status === 0;
const SOCKET = `cmv-test-${process.pid}`;

function tmux(...args: string[]): string {
  const run = spawnSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`tmux ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}

const capture = (target: string, escapes = false) => tmux('capture-pane', '-p', ...(escapes ? ['-e'] : []), '-t', target);

async function until(target: string, test: (screen: string) => boolean, ms = 20_000): Promise<string> {
  const started = Date.now();
  for (;;) {
    const screen = capture(target);
    if (test(screen)) return screen;
    if (Date.now() - started > ms) throw new Error(`screen never matched:\n${screen}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!HAS_TMUX)('the dashboard in tmux', () => {
  let scratch: string;
  let samples: SampleSession[];
  let env: string;

  beforeAll(async () => {
    await buildIfStale();
    scratch = mkdtempSync(join(tmpdir(), 'cmv-tmux-'));
    samples = sampleConfigDir(join(scratch, 'claude'));
    mkdirSync(join(scratch, 'config', 'cmv'), { recursive: true });
    writeFileSync(join(scratch, 'config', 'cmv', 'config.json'), JSON.stringify({ 'ui.pollSeconds': 0.3 }));
    // CI is unset: a dashboard started by a user on a terminal is not a CI log.
    env = `env -u CI CLAUDE_CONFIG_DIR=${scratch}/claude CMV_HOME=${scratch}/data XDG_CONFIG_HOME=${scratch}/config TERM=xterm-256color`;
    tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'main', '-x', '120', '-y', '36', `${env} ${process.execPath} ${BIN}; echo EXITED; sleep 60`);
  }, 180_000);

  afterAll(() => {
    if (HAS_TMUX) spawnSync('tmux', ['-L', SOCKET, 'kill-server']);
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('starts on `cmv` alone and shows projects, the session tree and the detail', async () => {
    const screen = await until('main', (s) => s.includes('Projects (3)') && s.includes('Trim preview') && s.includes('Break-even'));
    expect(screen).toMatch(/^cmv 3 sessions/);
    expect(screen).toContain('Tokens on resume:');
    expect(screen.split('\n').filter((l) => /^[╭┏]/.test(l)).length).toBe(1); // one frame, not stacked copies
    expect(screen).toContain('↑↓/jk move');
  });

  it('writes nothing to the terminal while nothing changes, and redraws a row when a log grows', async () => {
    const record = join(scratch, 'pane-output');
    writeFileSync(record, '');
    await until('main', (s) => !s.includes('●')); // the copies are no longer "just written"
    await pause(1_000);
    tmux('pipe-pane', '-o', '-t', 'main', `cat >> ${record}`);
    await pause(1_500); // five polls
    expect(statSync(record).size).toBe(0);
    const target = samples.find((s) => capture('main').includes(s.id.slice(0, 8)))!;
    appendFileSync(target.path, `${JSON.stringify({ type: 'last-prompt', lastPrompt: 'more', sessionId: target.id })}\n`);
    await until('main', (s) => s.includes(`● ${target.id.slice(0, 8)}`));
    tmux('pipe-pane', '-t', 'main');
    const written = readFileSync(record, 'utf8');
    expect(written.length).toBeGreaterThan(0);
    expect(written).not.toContain('\u001b[2J'); // never a cleared screen
  });

  it('moves between panes and projects, filters, and shows help', async () => {
    const first = /Sessions · (\S+)/.exec(capture('main'))![1];
    tmux('send-keys', '-t', 'main', 'Tab', 'Tab', 'j');
    await until('main', (s) => !s.includes(`Sessions · ${first}`) && /▸ Projects/.test(s));
    tmux('send-keys', '-t', 'main', '/', 'c', 's', 'v', 'Enter');
    const filtered = await until('main', (s) => s.includes('Projects (1)'));
    expect(filtered).toContain('Sessions · cmv-samples/csv2md');
    tmux('send-keys', '-t', 'main', 'Escape');
    await until('main', (s) => s.includes('Projects (3)'));
    tmux('send-keys', '-t', 'main', '?');
    expect(await until('main', (s) => s.includes('cmv dashboard — keys'))).toContain('trim the selected session into a new session');
    tmux('send-keys', '-t', 'main', 'x');
    await until('main', (s) => s.includes('Projects (3)'));
  });

  it('follows a resize of the terminal', async () => {
    tmux('resize-window', '-t', 'main', '-x', '90', '-y', '30');
    const narrow = await until('main', (s) => s.split('\n')[1]?.length <= 90 && s.includes('Detail') && s.includes('Projects (3)') && !s.includes('Sessions ·'));
    expect(narrow.split('\n').filter((l) => /^[╭┏]/.test(l)).length).toBe(1);
    tmux('resize-window', '-t', 'main', '-x', '120', '-y', '36');
    await until('main', (s) => s.includes('Projects (3)'));
  });

  it('draws colour on a colour terminal, none with NO_COLOR, and refuses TERM=dumb', async () => {
    expect(capture('main', true)).toMatch(/\u001b\[[0-9;]*3[0-9]m|\u001b\[[0-9;]*38;5;/);
    tmux('new-window', '-d', '-t', 'main', '-n', 'plain', `${env} NO_COLOR=1 ${process.execPath} ${BIN}; sleep 60`);
    await until('main:plain', (s) => s.includes('Projects (3)'));
    expect(capture('main:plain', true)).not.toMatch(/\u001b\[[0-9;]*(3[0-9]|4[0-9]|38;5;\d+|7)m/);
    tmux('new-window', '-d', '-t', 'main', '-n', 'dumb', `env -u CI CLAUDE_CONFIG_DIR=${scratch}/claude TERM=dumb ${process.execPath} ${BIN}; sleep 60`);
    await until('main:dumb', (s) => s.includes('completion <shell>'));
    const dumb = tmux('capture-pane', '-p', '-e', '-S', '-200', '-t', 'main:dumb');
    expect(dumb).toContain('Usage: cmv');
    expect(dumb).not.toContain('\u001b[');
  });

  it('exits on Enter and prints the command that resumes the selected session', async () => {
    tmux('send-keys', '-t', 'main', 'Tab', 'Enter'); // focus back on the tree, then Enter
    const screen = await until('main', (s) => s.includes('EXITED'));
    const resumed = samples.find((s) => screen.includes(`claude --resume ${s.id}`));
    expect(resumed, screen).toBeDefined();
    expect(screen).toContain(`cd ${resumed!.cwd} && claude --resume ${resumed!.id}`);
  });

  it('shows the resume command of a trim whole on a terminal narrower than the command', async () => {
    tmux('new-session', '-d', '-s', 'narrow', '-x', '64', '-y', '30', `${env} ${process.execPath} ${BIN}; echo EXITED; sleep 60`);
    await until('narrow', (s) => /›[○●] \w{6}/.test(s));
    tmux('send-keys', '-t', 'narrow', 't');
    const screen = await until('narrow', (s) => s.includes('trimmed into new session'));
    const rows = screen.split('\n').map((r) => r.trimEnd());
    expect(rows.every((r) => r.length <= 64)).toBe(true);
    const id = /trimmed into new session (\w{8})/.exec(screen)![1];
    // The command's rows follow its label and join back to it; the frame still ends above them.
    const label = rows.findIndex((r) => r.startsWith('resume'));
    const command = rows.slice(label + 1).join('');
    expect(command).toMatch(new RegExp(`^cd \\S+ && claude --resume ${id}[0-9a-f-]{28}$`));
    expect(rows.slice(0, label).some((r) => /^[╰┗]/.test(r))).toBe(true);
    tmux('send-keys', '-t', 'narrow', 'q');
    await until('narrow', (s) => s.includes('EXITED'));
    // Printed on exit as one line (the terminal wraps it; -J joins what it wrapped).
    expect(tmux('capture-pane', '-p', '-J', '-t', 'narrow')).toContain(command);
  });
});
