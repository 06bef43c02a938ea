// Claude Code's settings files, where hooks are registered: user scope (<config dir>/settings.json,
// ~/.claude by default), project scope (.claude/settings.json, shared) and local scope
// (.claude/settings.local.json, not committed). Read whole, written atomically, never guessed at.

import { createHash } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { mkdir, readFile, rm, rmdir } from 'node:fs/promises';
import { claudeConfigDirs } from '../session/locate.js';
import { ensureDataDir } from '../data-dir.js';
import { writeFileAtomic } from '../session/write.js';
import { CmvError } from '../errors.js';
import type { Settings } from './hook-entries.js';

export type SettingsScope = 'user' | 'project' | 'local';
export const SCOPES: SettingsScope[] = ['user', 'project', 'local'];

export function settingsPath(scope: SettingsScope, projectDir: string = process.cwd(), env: NodeJS.ProcessEnv = process.env): string {
  if (scope === 'user') return join(claudeConfigDirs(env)[0], 'settings.json');
  return join(resolve(projectDir), '.claude', scope === 'project' ? 'settings.json' : 'settings.local.json');
}

export function checkScope(text: string): SettingsScope {
  if ((SCOPES as string[]).includes(text)) return text as SettingsScope;
  throw new CmvError('USAGE', `no settings scope "${text}"`, { hint: 'use --scope user (~/.claude/settings.json), project (.claude/settings.json) or local (.claude/settings.local.json)' });
}

export interface SettingsFile {
  path: string;
  exists: boolean;
  settings: Settings;
  /** The file's text as read, for a backup before it is changed. */
  text: string;
}

export async function readSettings(path: string): Promise<SettingsFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { path, exists: false, settings: {}, text: '' };
    throw new CmvError('IO', `cannot read ${path}: ${(error as Error).message}`, { hint: 'check its permissions' });
  }
  if (text.trim() === '') return { path, exists: true, settings: {}, text };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CmvError('BAD_INPUT', `${path} is not valid JSON (${(error as Error).message}); cmv will not rewrite it`, {
      hint: 'fix the file by hand (Claude Code cannot read it either), then run the command again',
    });
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new CmvError('BAD_INPUT', `${path} does not hold a JSON object; cmv will not rewrite it`, { hint: 'fix the file by hand, then run the command again' });
  }
  const settings = parsed as Settings;
  if (settings.hooks !== undefined && (typeof settings.hooks !== 'object' || settings.hooks === null || Array.isArray(settings.hooks))) {
    throw new CmvError('BAD_INPUT', `"hooks" in ${path} is not an object; cmv will not rewrite it`, { hint: "see Claude Code's hooks documentation for its shape, fix it, and try again" });
  }
  return { path, exists: true, settings, text };
}

async function keepCopy(file: SettingsFile): Promise<string | undefined> {
  if (!file.exists || file.text === '') return undefined;
  const key = createHash('sha1').update(file.path).digest('hex').slice(0, 12);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const backup = join(await ensureDataDir('settings-backups'), `${key}-${stamp}.json`);
  await writeFileAtomic(backup, [file.text], 0o600);
  return backup;
}

/**
 * Removes a settings file left with nothing in it (after a copy), and its `.claude` folder of a
 * project when that is then empty: what an install created, an uninstall takes away.
 */
export async function removeSettings(file: SettingsFile): Promise<{ backup?: string }> {
  const backup = await keepCopy(file);
  await rm(file.path, { force: true });
  await rmdir(dirname(file.path)).catch(() => undefined); // only when empty
  return { backup };
}

/** Writes the settings, first keeping a copy of the previous file in cmv's data folder. */
export async function writeSettings(file: SettingsFile, settings: Settings): Promise<{ backup?: string }> {
  const backup = await keepCopy(file);
  await mkdir(dirname(file.path), { recursive: true });
  await writeFileAtomic(file.path, [`${JSON.stringify(settings, null, 2)}\n`], 0o600);
  return { backup };
}
