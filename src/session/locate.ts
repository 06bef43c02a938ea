// Where Claude Code keeps its logs, and how a session argument (path, id, id prefix or `latest`)
// becomes one file. The folder name of a project is derived from the cwd, but the real cwd is
// always read from the log's lines, never decoded from the folder name.

import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { existsSync, statSync } from 'node:fs';
import { CmvError } from '../errors.js';

/** Claude Code cuts project folder names at this many characters and appends a hash. */
const MAX_FOLDER_NAME = 200;

export function claudeConfigDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  const configured = env.CLAUDE_CONFIG_DIR;
  if (configured && configured.trim() !== '') {
    return configured
      .split(',')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => resolve(d));
  }
  const home = env.HOME && env.HOME !== '' ? env.HOME : homedir();
  return [join(home, '.claude'), join(home, '.config', 'claude')];
}

/** The 32-bit string hash Claude Code uses for the suffix of shortened folder names. */
function javaStyleHash(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = ((hash << 5) - hash + text.charCodeAt(i)) | 0;
  return hash;
}

/** The folder under `projects/` where Claude Code keeps the sessions of `cwd`. */
export function projectFolderName(cwd: string): string {
  const name = cwd.replace(/[^a-zA-Z0-9]/g, '-');
  if (name.length <= MAX_FOLDER_NAME) return name;
  return `${name.slice(0, MAX_FOLDER_NAME)}-${Math.abs(javaStyleHash(cwd)).toString(36)}`;
}

export function projectDir(configDir: string, cwd: string): string {
  return join(configDir, 'projects', projectFolderName(cwd));
}

export interface SessionFile {
  path: string;
  /** The file name without `.jsonl`: Claude Code's session id. */
  id: string;
  configDir: string;
  projectFolder: string;
  bytes: number;
  modifiedMs: number;
}

/** Every main session log under the given config dirs (subagent transcripts excluded). */
export async function listSessionFiles(configDirs: string[] = claudeConfigDirs()): Promise<SessionFile[]> {
  const files: SessionFile[] = [];
  for (const configDir of configDirs) {
    const projects = join(configDir, 'projects');
    if (!existsSync(projects)) continue;
    // Loaded only to list sessions: a command given a path never pays for it.
    const { default: fg } = await import('fast-glob');
    const entries = await fg('*/*.jsonl', { cwd: projects, absolute: true, stats: true, onlyFiles: true, suppressErrors: true });
    for (const entry of entries) {
      const name = entry.name.slice(0, -'.jsonl'.length);
      if (name.startsWith('agent-')) continue;
      const folder = entry.path.slice(projects.length + 1).split('/')[0];
      files.push({
        path: entry.path,
        id: name,
        configDir,
        projectFolder: folder,
        bytes: entry.stats?.size ?? 0,
        modifiedMs: entry.stats?.mtimeMs ?? 0,
      });
    }
  }
  return files.sort((a, b) => b.modifiedMs - a.modifiedMs || a.path.localeCompare(b.path));
}

const MIN_PREFIX = 4;

/**
 * Resolves a session argument: a path to a .jsonl file, a session id, a unique id prefix of at
 * least four characters, or `latest` (the most recently written session).
 */
export async function resolveSessionArg(arg: string, configDirs: string[] = claudeConfigDirs()): Promise<string> {
  const looksLikePath = arg.includes('/') || arg.endsWith('.jsonl') || arg.startsWith('.');
  if (looksLikePath || existsSync(arg)) {
    const path = resolve(arg);
    if (!existsSync(path)) {
      throw new CmvError('NOT_FOUND', `no such file: ${arg}`, { hint: 'check the path, or run `cmv sessions` to list sessions' });
    }
    if (statSync(path).isDirectory()) {
      throw new CmvError('BAD_INPUT', `${arg} is a directory, not a session log`, { hint: 'pass a .jsonl file, a session id or `latest`' });
    }
    return path;
  }
  const files = await listSessionFiles(configDirs);
  if (arg === 'latest') {
    if (files.length === 0) throw noSessions(configDirs);
    return files[0].path;
  }
  const exact = files.filter((f) => f.id === arg);
  if (exact.length >= 1) return exact[0].path;
  if (arg.length < MIN_PREFIX) {
    throw new CmvError('USAGE', `session id prefix "${arg}" is too short`, { hint: `give at least ${MIN_PREFIX} characters, or a path` });
  }
  const matches = files.filter((f) => f.id.startsWith(arg));
  if (matches.length === 1) return matches[0].path;
  if (matches.length > 1) {
    const ids = [...new Set(matches.map((m) => m.id))];
    if (ids.length === 1) return matches[0].path;
    throw new CmvError('AMBIGUOUS', `"${arg}" matches ${ids.length} sessions: ${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', ...' : ''}`, {
      hint: 'give more characters of the id',
    });
  }
  if (files.length === 0) throw noSessions(configDirs);
  throw new CmvError('NOT_FOUND', `no session matches "${arg}"`, { hint: '`cmv sessions` lists the sessions cmv can see' });
}

function noSessions(configDirs: string[]): CmvError {
  return new CmvError('NOT_FOUND', `no Claude Code sessions found in ${configDirs.join(', ')}`, {
    hint: 'set CLAUDE_CONFIG_DIR to the folder that holds projects/, or pass a path to a .jsonl file',
  });
}
