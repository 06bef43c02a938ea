// Where cmv keeps its own data (the snapshot store, backups of in-place trims):
// $CMV_HOME, else $XDG_DATA_HOME/cmv, else ~/.local/share/cmv, created private (0700).

import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { mkdir } from 'node:fs/promises';

export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CMV_HOME && env.CMV_HOME !== '') return resolve(env.CMV_HOME);
  if (env.XDG_DATA_HOME && env.XDG_DATA_HOME !== '') return join(resolve(env.XDG_DATA_HOME), 'cmv');
  const home = env.HOME && env.HOME !== '' ? env.HOME : homedir();
  return join(home, '.local', 'share', 'cmv');
}

export async function ensureDataDir(sub: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const root = dataDir(env);
  await mkdir(root, { recursive: true, mode: 0o700 });
  const dir = join(root, sub);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return dir;
}
