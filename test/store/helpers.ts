// Temp stores and sessions for the store tests: a CMV_HOME and a Claude config dir per test, real
// git, real session logs from sample-sessions/ and the shared corpus.

import { mkdtempSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { openStore, type Store } from '../../src/store/store.js';
import { projectFolderName } from '../../src/session/locate.js';

export interface Sandbox {
  root: string;
  env: NodeJS.ProcessEnv;
  configDir: string;
  store: Store;
  cleanup(): void;
}

export async function sandbox(): Promise<Sandbox> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'cmv-store-test-')));
  const configDir = join(root, 'claude');
  mkdirSync(join(configDir, 'projects'), { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, CMV_HOME: join(root, 'cmv'), CLAUDE_CONFIG_DIR: configDir };
  const store = await openStore(env);
  return { root, env, configDir, store, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Writes `data` as session `id` of project `cwd` in the sandbox's config dir; returns its path. */
export function installSession(box: Sandbox, cwd: string, id: string, data: Buffer | string): string {
  const dir = join(box.configDir, 'projects', projectFolderName(cwd));
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${id}.jsonl`);
  writeFileSync(path, data);
  return path;
}

/** Byte offsets just after the line ends that split `data` into `parts` growing prefixes. */
export function prefixCuts(data: Buffer, parts: number): number[] {
  const ends: number[] = [];
  for (let i = data.indexOf(10); i >= 0; i = data.indexOf(10, i + 1)) ends.push(i + 1);
  return Array.from({ length: parts }, (_, k) => ends[Math.max(0, Math.floor((ends.length * (k + 1)) / parts) - 1)]);
}

/**
 * A real session placed elsewhere: every sessionId set to `id`, and its project folder (the cwd
 * of its first line, wherever it appears: cwd fields, tool inputs) replaced by `cwd`.
 */
export function relocate(data: Buffer, id: string, cwd: string): Buffer {
  const text = data.toString('utf8');
  const from = /"cwd":"([^"]+)"/.exec(text)?.[1];
  const moved = from ? text.split(from).join(cwd) : text;
  const lines = moved.split('\n').map((line) => {
    if (!line.trim()) return line;
    try {
      const record = JSON.parse(line) as Record<string, unknown>;
      if ('sessionId' in record) record.sessionId = id;
      if ('cwd' in record) record.cwd = cwd;
      return JSON.stringify(record);
    } catch {
      return line;
    }
  });
  return Buffer.from(lines.join('\n'));
}

/** The uuid of a log's last line that has one (where a line appended after it chains to). */
export function lastUuidOf(data: Buffer): string | undefined {
  return data
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l).uuid as string | undefined)
    .filter(Boolean)
    .pop();
}

export function git(cwd: string, ...args: string[]): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

export function read(path: string): Buffer {
  return readFileSync(path);
}

export const SESSION_A = '3f2a9c1e-5b7d-4e0f-9a1b-2c3d4e5f6a7b';
export const SESSION_B = '9c1e3f2a-7b5d-4f0e-8b1a-7a6f5e4d3c2b';
