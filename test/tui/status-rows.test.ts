// The status rows show an action's result whole: the text and each warning wrapped onto further
// rows, the command to copy on rows of its own and never cut; the panes above make room.

import './tui-env.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createElement } from 'react';
import { render } from 'ink-testing-library';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App, type DashboardExit } from '../../src/tui/app.js';
import { defaultSources } from '../../src/tui/sources.js';
import { defaultConfig } from '../../src/config/config-keys.js';
import { statusRows, wrapWords } from '../../src/tui/components/status-bar.js';
import { sampleConfigDir } from './sample-config-dir.js';

const COMMAND = "cd '/home/someone/projects/a-rather-long-folder-name/with/several/levels' && claude --resume 0f6c2d4e-8b1a-4c3d-9e7f-123456789abc";
const WARNINGS = [
  'src/parser/tokenizer.ts changed since the session read it (12 lines differ): the branch may act on an old copy',
  'the log was written 3 seconds ago: Claude Code may still be appending to it',
];
const normal = { kind: 'normal' } as const;

describe('the status rows', () => {
  it('wrap words onto rows of the width, and split only a word longer than a row', () => {
    expect(wrapWords('one two three four', 9)).toEqual(['one two', 'three', 'four']);
    expect(wrapWords('abcdefghijkl xy', 5)).toEqual(['abcde', 'fghij', 'kl xy']);
    expect(wrapWords('', 5)).toEqual(['']);
  });

  it('hold a result, its whole command and every warning whole, in rows no wider than the terminal', () => {
    for (const width of [40, 80, 200]) {
      const rows = statusRows({
        mode: normal,
        filter: '',
        busy: undefined,
        width,
        message: { text: 'trimmed into new session 0f6c2d4e (-62.5% tokens)', ok: true, command: COMMAND, warnings: WARNINGS },
      });
      for (const row of rows) expect(row.text.length, row.text).toBeLessThanOrEqual(width);
      const texts = rows.map((r) => r.text);
      const commandAt = texts.findIndex((t) => t.startsWith('resume'));
      const commandRows = rows.filter((r) => r.bold).map((r) => r.text);
      // One row when it fits beside its label; else alone on its rows, which join back to it.
      expect(commandRows.length === 1 ? commandRows[0] : commandRows.slice(1).join('')).toBe(commandRows.length === 1 ? `resume: ${COMMAND}` : COMMAND);
      expect(commandAt).toBeGreaterThan(0);
      const warningText = rows
        .filter((r) => r.color === 'yellow')
        .map((r) => r.text)
        .join(' ');
      for (const w of WARNINGS) expect(warningText).toContain(`warning: ${w}`);
    }
  });

  it('keep the keys hint to one row', () => {
    expect(statusRows({ mode: normal, filter: '', width: 30 })).toHaveLength(1);
  });
});

describe('the dashboard status', () => {
  let scratch: string;
  const saved = process.env.CMV_HOME;
  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'cmv-status-'));
    process.env.CMV_HOME = join(scratch, 'data');
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.CMV_HOME;
    else process.env.CMV_HOME = saved;
    rmSync(scratch, { recursive: true, force: true });
  });

  it('shows the resume command and the warnings of a trim whole on a narrow terminal, the frame still fitting it', async () => {
    const configDir = join(scratch, 'claude');
    sampleConfigDir(configDir);
    const sources = {
      ...defaultSources(defaultConfig(), [configDir]),
      trim: async () => ({ ok: true, message: 'trimmed into new session 0f6c2d4e (-62.5% tokens)', resumeCommand: COMMAND, warnings: WARNINGS }),
    };
    const exits: DashboardExit[] = [];
    const size = { columns: 60, rows: 30 };
    const app = render(createElement(App, { sources, pollMs: 100, onExit: (r: DashboardExit) => exits.push(r), size }));
    const until = async (test: (t: string) => boolean) => {
      const started = Date.now();
      while (!test(app.lastFrame() ?? '')) {
        if (Date.now() - started > 15_000) throw new Error(`frame never matched:\n${app.lastFrame()}`);
        await new Promise((r) => setTimeout(r, 25));
      }
      return app.lastFrame()!;
    };
    await until((t) => /›[○●] \w{6}/.test(t));
    app.stdin.write('t');
    const frame = await until((t) => t.includes('trimmed into new session'));
    const rows = frame.split('\n');
    expect(rows.length).toBeLessThanOrEqual(size.rows - 1);
    for (const row of rows) expect(row.length).toBeLessThanOrEqual(size.columns);
    // The frame's bottom border is still drawn above the status rows.
    const status = rows.slice(rows.findLastIndex((r) => /^[╰┗]/.test(r)) + 1);
    expect(status[0]).toContain('trimmed into new session');
    const joined = status.map((r) => r.trimEnd()).join('');
    expect(joined).toContain(COMMAND);
    for (const w of WARNINGS) expect(status.map((r) => r.trimEnd()).join(' ')).toContain(`warning: ${w}`);
    app.stdin.write('q');
    await until(() => exits.length === 1);
    expect(exits[0].notes).toEqual([COMMAND]);
    app.unmount();
  });
});
