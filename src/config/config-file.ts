// cmv's config file: $XDG_CONFIG_HOME/cmv/config.json (else ~/.config/cmv/config.json), a flat
// JSON object of the keys in config-keys.ts. Read whole and validated, written atomically.

import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { mkdir, readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../session/write.js';
import { CmvError } from '../errors.js';
import { CONFIG_KEYS, KEY_NAMES, checkKey, defaultConfig, type CmvConfig, type ConfigKey } from './config-keys.js';

/** Sections of the same file that other modules read and check: the price table (src/cost/model-config.ts). */
const SECTIONS_READ_ELSEWHERE = new Set(['models']);

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CMV_CONFIG && env.CMV_CONFIG !== '') return resolve(env.CMV_CONFIG);
  const base = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME !== '' ? resolve(env.XDG_CONFIG_HOME) : join(env.HOME && env.HOME !== '' ? env.HOME : homedir(), '.config');
  return join(base, 'cmv', 'config.json');
}

export interface LoadedConfig {
  path: string;
  /** Every key: the file's value, else the default. */
  values: CmvConfig;
  /** The keys the file sets. */
  set: ConfigKey[];
}

async function readRaw(path: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new CmvError('IO', `cannot read the config file ${path}: ${(error as Error).message}`, { hint: 'check its permissions' });
  }
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CmvError('BAD_INPUT', `the config file ${path} is not valid JSON: ${(error as Error).message}`, {
      hint: 'fix it by hand, or delete it to go back to the defaults',
    });
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new CmvError('BAD_INPUT', `the config file ${path} must hold one JSON object`, { hint: 'for example {"trim.threshold": 2000}' });
  }
  return parsed as Record<string, unknown>;
}

export async function loadConfig(env: NodeJS.ProcessEnv = process.env): Promise<LoadedConfig> {
  const path = configPath(env);
  const raw = await readRaw(path);
  const values = defaultConfig() as unknown as Record<string, unknown>;
  const set: ConfigKey[] = [];
  for (const [name, value] of Object.entries(raw)) {
    if (SECTIONS_READ_ELSEWHERE.has(name)) continue;
    let key: ConfigKey;
    try {
      key = checkKey(name);
    } catch (error) {
      throw new CmvError('BAD_INPUT', `the config file ${path}: ${(error as Error).message}`, { hint: (error as CmvError).hint });
    }
    try {
      values[key] = CONFIG_KEYS[key].check(value);
    } catch (error) {
      throw new CmvError('BAD_INPUT', `the config file ${path}: ${key} ${(error as Error).message}`, {
        hint: `set it again with \`cmv config set ${key} ${CONFIG_KEYS[key].example}\`, or \`cmv config unset ${key}\``,
      });
    }
    set.push(key);
  }
  return { path, values: values as unknown as CmvConfig, set };
}

/** The config, or the defaults when the file is unreadable: for hooks, which must never fail. */
export async function loadConfigOrDefaults(env: NodeJS.ProcessEnv = process.env): Promise<{ values: CmvConfig; problem?: string }> {
  try {
    return { values: (await loadConfig(env)).values };
  } catch (error) {
    return { values: defaultConfig(), problem: (error as Error).message };
  }
}

async function writeRaw(path: string, raw: Record<string, unknown>): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const ordered = Object.fromEntries([...KEY_NAMES.filter((k) => k in raw), ...Object.keys(raw).filter((k) => SECTIONS_READ_ELSEWHERE.has(k))].map((k) => [k, raw[k]]));
  await writeFileAtomic(path, [`${JSON.stringify(ordered, null, 2)}\n`], 0o600);
}

/** Sets one key (the value already checked) and writes the file; other keys are kept as they are. */
export async function setConfigValue<K extends ConfigKey>(key: K, value: CmvConfig[K], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  await loadConfig(env); // refuses to rewrite a file it cannot understand
  const path = configPath(env);
  const raw = await readRaw(path);
  raw[key] = value;
  await writeRaw(path, raw);
  return path;
}

export async function unsetConfigValue(key: ConfigKey, env: NodeJS.ProcessEnv = process.env): Promise<{ path: string; wasSet: boolean }> {
  const path = configPath(env);
  const raw = await readRaw(path);
  const wasSet = key in raw;
  if (wasSet) {
    delete raw[key];
    await writeRaw(path, raw);
  }
  return { path, wasSet };
}
