// When the dashboard starts and when it does not: only with a terminal on stdin and stdout that
// can draw; `cmv` alone elsewhere prints the help, and Ink is never loaded for it.

import { describe, expect, it } from 'vitest';
import { dashboardBlocker } from '../../src/cli/commands/ui.js';
import { buildIfStale, runCmv } from '../helpers/built-cli.js';

describe('cmv ui', () => {
  it('needs both stdin and stdout to be terminals, and a TERM that is not dumb', () => {
    expect(dashboardBlocker({ isTTY: true }, { isTTY: true }, { TERM: 'xterm-256color' })).toBeUndefined();
    expect(dashboardBlocker({ isTTY: false }, { isTTY: true }, {})).toMatch(/needs a terminal/);
    expect(dashboardBlocker({ isTTY: true }, { isTTY: undefined }, {})).toMatch(/needs a terminal/);
    expect(dashboardBlocker({ isTTY: true }, { isTTY: true }, { TERM: 'dumb' })).toMatch(/TERM=dumb/);
  });

  it('prints the help, examples first, for `cmv` alone in a pipe; `cmv ui` says why it cannot start', async () => {
    await buildIfStale();
    const alone = runCmv([], { HOME: '/nonexistent' });
    expect(alone.code).toBe(0);
    expect(alone.stdout).toMatch(/^Examples:\n {2}\$ cmv {2,}# the dashboard, on a terminal/);
    expect(alone.stdout).toContain('ui [options]');
    const ui = runCmv(['ui'], { HOME: '/nonexistent', NO_COLOR: '1' });
    expect(ui.code).toBe(2);
    expect(ui.stderr).toBe('cmv: the dashboard needs a terminal on stdin and stdout\nhint: `cmv sessions` and `cmv stats` print the same facts as text\n');
  }, 180_000);

  it('gives plain text on TERM=dumb and with NO_COLOR, colour with FORCE_COLOR', async () => {
    await buildIfStale();
    const env = { HOME: '/nonexistent', XDG_CONFIG_HOME: '/nonexistent/config' };
    expect(runCmv(['config', 'list'], { ...env, FORCE_COLOR: '1' }).stdout).toContain('\u001b[');
    expect(runCmv(['config', 'list'], { ...env, FORCE_COLOR: '1', NO_COLOR: '1' }).stdout).not.toContain('\u001b[');
    expect(runCmv(['config', 'list'], { ...env, TERM: 'dumb' }).stdout).not.toContain('\u001b[');
    expect(runCmv(['config', 'list', '--no-color'], { ...env, FORCE_COLOR: '1' }).stdout).not.toContain('\u001b[');
  }, 180_000);
});
