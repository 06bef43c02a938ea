// `cmv config get|set|unset|list`: read and change cmv's config file, every value validated.

import chalk from 'chalk';
import { CONFIG_KEYS, KEY_NAMES, checkKey, parseValue } from '../../config/config-keys.js';
import { loadConfig, setConfigValue, unsetConfigValue } from '../../config/config-file.js';
import type { Output } from '../output.js';
import { table } from '../format.js';

function show(value: unknown): string {
  return value === null ? '(none)' : String(value);
}

export async function configGetCommand(key: string, out: Output): Promise<void> {
  const name = checkKey(key);
  const config = await loadConfig();
  out.render({ key: name, value: config.values[name], set: config.set.includes(name) }, (r) => show(r.value));
}

export async function configSetCommand(key: string, text: string, out: Output): Promise<void> {
  const name = checkKey(key);
  const value = parseValue(name, text);
  const path = await setConfigValue(name, value);
  out.render({ key: name, value, path }, (r) => `${r.key} = ${show(r.value)} ${chalk.dim(`(${r.path})`)}`);
}

export async function configUnsetCommand(key: string, out: Output): Promise<void> {
  const name = checkKey(key);
  const { path, wasSet } = await unsetConfigValue(name);
  const value = CONFIG_KEYS[name].defaultValue;
  out.render({ key: name, value, wasSet, path }, (r) => (r.wasSet ? `${r.key} back to its default, ${show(r.value)}` : `${r.key} was not set (default ${show(r.value)})`));
}

export async function configListCommand(out: Output): Promise<void> {
  const config = await loadConfig();
  const rows = KEY_NAMES.map((key) => ({ key, value: config.values[key], set: config.set.includes(key), description: CONFIG_KEYS[key].description }));
  out.render({ path: config.path, keys: rows }, (r) => {
    const lines = r.keys.map((k) => [k.key, k.set ? chalk.bold(show(k.value)) : `${show(k.value)}${chalk.dim(' (default)')}`, chalk.dim(k.description)]);
    return `${table(lines)}\n${chalk.dim(`config file: ${r.path}`)}`;
  });
}
