// Finding sessions the way Claude Code stores them: project folder names, config dirs, session
// arguments (path, id, prefix, `latest`) and the listing, against a config dir built in a temp folder.

import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeConfigDirs, listSessionFiles, projectDir, projectFolderName, resolveSessionArg } from '../../src/session/locate.js';
import { listSessions } from '../../src/session/listing.js';
import { peekSession } from '../../src/session/summary.js';
import { CmvError } from '../../src/errors.js';
import { sessionRecords, toJsonl, FIXTURE_MODEL } from './fixtures.js';

/** Claude Code's suffix for shortened folder names, written out independently of cmv. */
function claudeCodeSuffix(cwd: string): string {
  let hash = 0;
  for (let i = 0; i < cwd.length; i++) hash = ((hash << 5) - hash + cwd.charCodeAt(i)) | 0;
  return Math.abs(hash).toString(36);
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(CmvError);
    return (error as CmvError).code;
  }
  throw new Error('expected a CmvError');
}

describe('projectFolderName', () => {
  it('replaces every character but ASCII letters and digits with a dash', () => {
    expect(projectFolderName('/home/me/my_app')).toBe('-home-me-my-app');
    expect(projectFolderName('C:\\Users\\me\\My App.v2')).toBe('C--Users-me-My-App-v2');
    expect(projectFolderName('/tmp/café')).toBe('-tmp-caf-');
  });

  it('keeps a name of exactly 200 characters whole', () => {
    const cwd = `/${'a'.repeat(199)}`;
    expect(projectFolderName(cwd)).toBe(`-${'a'.repeat(199)}`);
  });

  it('cuts a longer name at 200 characters and appends the base-36 hash of the cwd', () => {
    const cwd = `/home/me/${'deeply_nested/'.repeat(20)}project`;
    expect(cwd.length).toBeGreaterThan(200);
    const name = projectFolderName(cwd);
    expect(name).toBe(`${cwd.replace(/[^a-zA-Z0-9]/g, '-').slice(0, 200)}-${claudeCodeSuffix(cwd)}`);
    // Two cwds that differ only after character 200 get different folders.
    expect(projectFolderName(`${cwd}-b`)).not.toBe(name);
    expect(projectFolderName(`${cwd}-b`).slice(0, 200)).toBe(name.slice(0, 200));
  });

  it('hashes with 32-bit overflow, including a negative hash', () => {
    const cwd = `/${'a'.repeat(300)}`; // its 32-bit hash is -1924122513
    const suffix = projectFolderName(cwd).slice(201);
    expect(suffix).toBe(claudeCodeSuffix(cwd));
    expect(suffix).toBe((1924122513).toString(36));
  });

  it('places a project under <config>/projects', () => {
    expect(projectDir('/cfg', '/home/me/my_app')).toBe(join('/cfg', 'projects', '-home-me-my-app'));
  });
});

describe('claudeConfigDirs', () => {
  it('uses CLAUDE_CONFIG_DIR, resolved to an absolute path', () => {
    expect(claudeConfigDirs({ CLAUDE_CONFIG_DIR: '/opt/claude' })).toEqual(['/opt/claude']);
    expect(claudeConfigDirs({ CLAUDE_CONFIG_DIR: 'rel/dir' })).toEqual([resolve('rel/dir')]);
  });

  it('splits a comma-separated CLAUDE_CONFIG_DIR and drops empty parts', () => {
    expect(claudeConfigDirs({ CLAUDE_CONFIG_DIR: '/a, /b ,,/c/' })).toEqual(['/a', '/b', '/c']);
  });

  it('falls back to ~/.claude and ~/.config/claude when unset or blank', () => {
    for (const env of [{ HOME: '/home/me' }, { HOME: '/home/me', CLAUDE_CONFIG_DIR: '  ' }]) {
      expect(claudeConfigDirs(env)).toEqual(['/home/me/.claude', '/home/me/.config/claude']);
    }
  });
});

describe('with a config dir of sessions', () => {
  let config: string;
  let other: string;
  const ids = {
    old: 'aaaa1111-0000-4000-8000-000000000001',
    mid: 'aaaa2222-0000-4000-8000-000000000002',
    newest: 'bbbb3333-0000-4000-8000-000000000003',
  };
  const path = (id: string, project = '-home-me-my-app') => join(config, 'projects', project, `${id}.jsonl`);

  beforeAll(() => {
    config = mkdtempSync(join(tmpdir(), 'cmv-config-'));
    other = mkdtempSync(join(tmpdir(), 'cmv-config-other-'));
    mkdirSync(join(config, 'projects', '-home-me-my-app'), { recursive: true });
    mkdirSync(join(config, 'projects', '-srv-other'), { recursive: true });
    const write = (file: string, records: unknown[], mtimeSeconds: number) => {
      writeFileSync(file, toJsonl(records));
      utimesSync(file, mtimeSeconds, mtimeSeconds);
    };
    write(path(ids.old), sessionRecords({ sessionId: ids.old, cwd: '/home/me/my_app', prompt: 'the oldest one' }), 1_700_000_000);
    // Resumed with a newer Claude Code: the listing shows the version of the tail.
    const resumed = [
      ...sessionRecords({ sessionId: ids.mid, cwd: '/home/me/my_app', version: '2.1.14', prompt: '<command-name>/init</command-name>\n<command-args></command-args>' }),
      ...sessionRecords({ sessionId: ids.mid, cwd: '/home/me/my_app', version: '2.1.37', prompt: 'later' }).map((r) => ({ ...r, uuid: `${r.uuid}-2` })),
    ];
    write(path(ids.mid), resumed, 1_700_000_100);
    const meta = {
      type: 'user',
      isMeta: true,
      sessionId: ids.newest,
      cwd: '/srv/other',
      message: { role: 'user', content: 'Caveat: the messages below were generated by the user while running local commands.' },
    };
    write(path(ids.newest, '-srv-other'), [meta, ...sessionRecords({ sessionId: ids.newest, cwd: '/srv/other', prompt: 'newest   prompt\nwith   spaces' })], 1_700_000_200);
    // A subagent transcript beside the sessions is not a session.
    write(join(config, 'projects', '-srv-other', 'agent-a123.jsonl'), sessionRecords({ sessionId: ids.newest }), 1_700_000_300);
  });
  afterAll(() => {
    rmSync(config, { recursive: true, force: true });
    rmSync(other, { recursive: true, force: true });
  });

  describe('resolveSessionArg', () => {
    it('returns a path to an existing file as it is', async () => {
      expect(await resolveSessionArg(path(ids.old), [config])).toBe(path(ids.old));
    });

    it('reports a missing path as NOT_FOUND and a folder as BAD_INPUT', async () => {
      expect(await codeOf(resolveSessionArg(join(config, 'nope.jsonl'), [config]))).toBe('NOT_FOUND');
      expect(await codeOf(resolveSessionArg(join(config, 'projects'), [config]))).toBe('BAD_INPUT');
    });

    it('finds a session by its full id', async () => {
      expect(await resolveSessionArg(ids.mid, [config])).toBe(path(ids.mid));
    });

    it('finds a session by a unique prefix of four or more characters', async () => {
      expect(await resolveSessionArg('bbbb', [config])).toBe(path(ids.newest, '-srv-other'));
      expect(await resolveSessionArg('aaaa2', [config])).toBe(path(ids.mid));
    });

    it('refuses a prefix that matches several sessions with AMBIGUOUS, naming them', async () => {
      const error = await resolveSessionArg('aaaa', [config]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CmvError);
      expect((error as CmvError).code).toBe('AMBIGUOUS');
      expect((error as CmvError).message).toContain(ids.old);
      expect((error as CmvError).message).toContain(ids.mid);
      expect((error as CmvError).hint).toBeTruthy();
    });

    it('refuses a prefix shorter than four characters with USAGE', async () => {
      expect(await codeOf(resolveSessionArg('bbb', [config]))).toBe('USAGE');
    });

    it('reports an id that matches nothing as NOT_FOUND', async () => {
      expect(await codeOf(resolveSessionArg('cccc9999', [config]))).toBe('NOT_FOUND');
    });

    it('takes `latest` to be the most recently written session', async () => {
      expect(await resolveSessionArg('latest', [config])).toBe(path(ids.newest, '-srv-other'));
    });

    it('reports NOT_FOUND with a hint when the config dir has no sessions', async () => {
      const error = (await resolveSessionArg('latest', [other]).catch((e: unknown) => e)) as CmvError;
      expect(error.code).toBe('NOT_FOUND');
      expect(error.hint).toContain('CLAUDE_CONFIG_DIR');
    });

    it('looks through every config dir', async () => {
      expect(await resolveSessionArg(ids.old, [other, config])).toBe(path(ids.old));
    });
  });

  describe('listing', () => {
    it('lists session files newest first, without subagent transcripts', async () => {
      const files = await listSessionFiles([config]);
      expect(files.map((f) => f.id)).toEqual([ids.newest, ids.mid, ids.old]);
      expect(files[0]).toMatchObject({ projectFolder: '-srv-other', configDir: config });
    });

    it('lists sessions with cwd, first prompt, lines, version and model read from the logs', async () => {
      const sessions = await listSessions({ configDirs: [config] });
      expect(sessions.map((s) => s.id)).toEqual([ids.newest, ids.mid, ids.old]);
      const [newest, mid, old] = sessions;
      expect(newest).toMatchObject({ cwd: '/srv/other', firstPrompt: 'newest prompt with spaces', lines: 6, version: '2.1.14', model: FIXTURE_MODEL });
      expect(newest.lastActivity).toBe(new Date(1_700_000_200_000).toISOString());
      // The folder name would decode to /home/me/my/app: the cwd comes from the lines.
      expect(mid).toMatchObject({ cwd: '/home/me/my_app', firstPrompt: '/init', lines: 10, version: '2.1.37' });
      expect(old).toMatchObject({ firstPrompt: 'the oldest one', lines: 5 });
      expect(old.bytes).toBeGreaterThan(1000);
    });

    it('filters by project text in the cwd', async () => {
      expect((await listSessions({ configDirs: [config], project: 'MY_APP' })).map((s) => s.id)).toEqual([ids.mid, ids.old]);
      expect((await listSessions({ configDirs: [config], project: '/srv' })).map((s) => s.id)).toEqual([ids.newest]);
      expect(await listSessions({ configDirs: [config], project: 'nothing-like-this' })).toEqual([]);
    });
  });
});

describe('the first prompt of a listing', () => {
  const user = (content: unknown, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ type: 'user', message: { role: 'user', content }, uuid: `u-${Math.random()}`, sessionId: 's', cwd: '/p', ...extra });
  async function firstPromptOf(lines: string[]): Promise<string | undefined> {
    const dir = mkdtempSync(join(tmpdir(), 'cmv-peek-'));
    const path = join(dir, 'log.jsonl');
    writeFileSync(path, `${lines.join('\n')}\n`);
    return (await peekSession(path)).firstPrompt;
  }

  it('is what the user typed, not the file the IDE had open', async () => {
    const text = await firstPromptOf([
      user([
        { type: 'text', text: '<ide_opened_file>The user opened the file /p/a.ts in the IDE.</ide_opened_file>' },
        { type: 'text', text: 'Fix the failing test' },
      ]),
    ]);
    expect(text).toBe('Fix the failing test');
  });

  it('skips a housekeeping slash command that a prompt follows, and shows it only when nothing else was typed', async () => {
    const exit = user('<command-name>/exit</command-name>\n<command-message>exit</command-message>\n<command-args></command-args>');
    expect(await firstPromptOf([exit, user('Refactor the parser')])).toBe('Refactor the parser');
    expect(await firstPromptOf([exit])).toBe('/exit');
  });
});
