// Installing the hooks as a user keeps them working: the command in settings.json names no node
// of a particular version, an uninstall takes away the settings file an install created, and a
// trim whose backup was put back no longer counts as a saving.

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultCommandPrefix, installHooks, uninstallHooks } from '../../src/hooks/hook-install.js';
import { appendRestoreRecord, appendTrimRecord } from '../../src/hooks/trim-journal.js';
import { hookStatus } from '../../src/hooks/hook-status.js';

const BIN = resolve(__dirname, '..', '..', 'bin', 'cmv.js');
let root: string;
let savedHome: string | undefined;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'cmv-hook-install-'));
  savedHome = process.env.CMV_HOME;
  process.env.CMV_HOME = join(root, 'cmv-home');
});
afterEach(() => {
  if (savedHome === undefined) delete process.env.CMV_HOME;
  else process.env.CMV_HOME = savedHome;
  rmSync(root, { recursive: true, force: true });
});

describe('the command Claude Code runs', () => {
  it('never names the absolute path of this node (an nvm switch would break it)', () => {
    const prefix = defaultCommandPrefix({ PATH: '/usr/bin:/bin' });
    expect(prefix).not.toContain(process.execPath);
    expect(prefix).toBe(BIN);
  });

  it('is plain `cmv` when that is this installation on PATH', () => {
    const dir = join(root, 'bin');
    mkdirSync(dir);
    symlinkSync(BIN, join(dir, 'cmv'));
    expect(defaultCommandPrefix({ PATH: `${dir}:/usr/bin` })).toBe('cmv');
  });
});

describe('uninstall', () => {
  it('takes away the project settings file (and .claude folder) that install created, not leaving {}', async () => {
    const project = join(root, 'project');
    mkdirSync(project);
    const env = { ...process.env, HOME: join(root, 'home') };
    const installed = await installHooks({ scope: 'project', kinds: ['pre-compact'], timeoutSeconds: 30, projectDir: project, env });
    expect(existsSync(installed.path)).toBe(true);
    expect(readFileSync(installed.path, 'utf8')).not.toContain(process.execPath);
    await uninstallHooks({ scope: 'project', kinds: ['pre-compact', 'size-guard'], projectDir: project, env });
    expect(existsSync(installed.path)).toBe(false);
    expect(existsSync(join(project, '.claude'))).toBe(false);
  });
});

describe('hook status', () => {
  it('leaves a trim whose backup was restored out of the totals, and marks it restored', async () => {
    const base = { by: 'size-guard' as const, path: '/p/log.jsonl', bytesBefore: 10_000, bytesAfter: 4_000, tokensBefore: 3_000, tokensAfter: 1_000 };
    await appendTrimRecord({ ...base, at: '2026-01-01T00:00:00.000Z', backup: '/b/one.jsonl' });
    await appendTrimRecord({ ...base, at: '2026-01-01T00:01:00.000Z', backup: '/b/two.jsonl' });
    await appendRestoreRecord('/p/log.jsonl', '/b/two.jsonl');
    const status = await hookStatus({ projectDir: root, env: process.env });
    expect(status.totals).toEqual({ trims: 1, bytesSaved: 6_000, tokensSaved: 2_000 });
    expect(status.trims.map((t) => [t.backup, t.restored ?? false])).toEqual([
      ['/b/two.jsonl', true],
      ['/b/one.jsonl', false],
    ]);
  });
});
