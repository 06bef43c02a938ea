// The settings a user can keep in cmv's config file: their names, defaults and validation.
// Pure: a value comes in as text (from `cmv config set`) or JSON (from the file) and leaves typed.

import { isAbsolute } from 'node:path';
import { existsSync, accessSync, constants } from 'node:fs';
import { CmvError } from '../errors.js';
import { builtinRegistry, parseModelName, pricingOverride } from '../cost/registry.js';
import { DEFAULT_TRIM_OPTIONS } from '../trim/options.js';

export interface CmvConfig {
  /** Stub tool results longer than this many characters (the dashboard's preview and the hooks). */
  'trim.threshold': number;
  /** Model every call is priced as when `--model` is not given (breakeven, analyze, the dashboard); none: the log's own. */
  model: string | null;
  /** PostToolUse size guard: trim once the log grew by this many bytes since its last trim. */
  'hook.growthBytes': number;
  /** A hook gives up (and still exits 0) after this many seconds. */
  'hook.timeoutSeconds': number;
  /** The PreCompact hook also snapshots the session when the snapshot store exists. */
  'hook.snapshot': boolean;
  /** The Claude Code executable the dashboard launches (`claude` on PATH by default). */
  'claude.binary': string;
  /** How often the dashboard looks for changed session logs. */
  'ui.pollSeconds': number;
}

export type ConfigKey = keyof CmvConfig;

interface KeySpec<K extends ConfigKey> {
  description: string;
  defaultValue: CmvConfig[K];
  example: string;
  /** Text from the command line to a value; throws a message on a bad one. */
  parse: (text: string) => CmvConfig[K];
  /** A value read from the file; throws a message on a bad one. */
  check: (value: unknown) => CmvConfig[K];
}

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, kb: 1024, k: 1024, mb: 1024 ** 2, m: 1024 ** 2, gb: 1024 ** 3, g: 1024 ** 3 };

function wholeNumber(min: number, max: number, what: string): (value: unknown) => number {
  return (value) => {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) {
      throw new Error(`must be ${what} (a whole number from ${min} to ${max}), not ${JSON.stringify(value)}`);
    }
    return n;
  };
}

function seconds(min: number, max: number): (value: unknown) => number {
  return (value) => {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isFinite(n) || n < min || n > max) throw new Error(`must be a number of seconds from ${min} to ${max}, not ${JSON.stringify(value)}`);
    return n;
  };
}

/** "4MB", "512 KB", "1048576" -> bytes. */
export function parseSize(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = m ? SIZE_UNITS[m[2].toLowerCase()] : undefined;
  if (!m || unit === undefined) throw new Error(`must be a size such as 4MB, 512KB or 1048576, not "${text}"`);
  return Math.round(Number(m[1]) * unit);
}

function bool(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'on' || value === 'yes') return true;
  if (value === 'false' || value === 'off' || value === 'no') return false;
  throw new Error(`must be true or false, not ${JSON.stringify(value)}`);
}

function modelName(value: unknown): string | null {
  if (value === null) return null;
  if (typeof value !== 'string' || value.trim() === '') throw new Error(`must be a model name such as sonnet-4.5, not ${JSON.stringify(value)}`);
  if (!parseModelName(value)) throw new Error(`"${value}" names no Claude model (try opus-4.6, sonnet-4.5 or claude-haiku-4-5)`);
  // The same check as --model: a model of the price table, never priced as a guess.
  try {
    pricingOverride(builtinRegistry(), value);
  } catch (error) {
    throw new Error((error as Error).message);
  }
  return value.trim();
}

function executable(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw new Error(`must be a command name or an absolute path, not ${JSON.stringify(value)}`);
  const text = value.trim();
  if (isAbsolute(text)) {
    if (!existsSync(text)) throw new Error(`${text} does not exist`);
    try {
      accessSync(text, constants.X_OK);
    } catch {
      throw new Error(`${text} is not executable`);
    }
    return text;
  }
  if (/[\s/]/.test(text)) throw new Error(`must be a command name on PATH (no spaces or slashes) or an absolute path, not "${text}"`);
  return text;
}

const growth = wholeNumber(1024, 1024 ** 4, 'a size in bytes of at least 1 KB');

export const CONFIG_KEYS: { [K in ConfigKey]: KeySpec<K> } = {
  'trim.threshold': {
    description: 'stub tool results longer than this many characters when --threshold is not given (trim, breakeven, analyze, dashboard, hooks)',
    defaultValue: DEFAULT_TRIM_OPTIONS.threshold,
    example: '2000',
    parse: wholeNumber(1, 10_000_000, 'a number of characters'),
    check: wholeNumber(1, 10_000_000, 'a number of characters'),
  },
  model: {
    description: 'price every call as this model when --model is not given (breakeven, analyze, dashboard)',
    defaultValue: null,
    example: 'sonnet-4.5',
    parse: modelName,
    check: modelName,
  },
  'hook.growthBytes': {
    description: 'size guard: trim once the log grew this much since its last trim (4MB, 512KB, ...)',
    defaultValue: 4 * 1024 * 1024,
    example: '8MB',
    parse: (text) => growth(parseSize(text)),
    check: growth,
  },
  'hook.timeoutSeconds': {
    description: 'a hook gives up after this long (it always exits 0)',
    defaultValue: 30,
    example: '20',
    parse: wholeNumber(1, 600, 'a number of seconds'),
    check: wholeNumber(1, 600, 'a number of seconds'),
  },
  'hook.snapshot': {
    description: 'the PreCompact hook snapshots the session first (when the snapshot store exists)',
    defaultValue: true,
    example: 'false',
    parse: bool,
    check: bool,
  },
  'claude.binary': {
    description: 'the Claude Code executable the dashboard launches',
    defaultValue: 'claude',
    example: '/usr/local/bin/claude',
    parse: executable,
    check: executable,
  },
  'ui.pollSeconds': {
    description: 'how often the dashboard looks for changed session logs',
    defaultValue: 2,
    example: '5',
    parse: seconds(0.2, 60),
    check: seconds(0.2, 60),
  },
};

export const KEY_NAMES = Object.keys(CONFIG_KEYS) as ConfigKey[];

export function defaultConfig(): CmvConfig {
  return Object.fromEntries(KEY_NAMES.map((k) => [k, CONFIG_KEYS[k].defaultValue])) as unknown as CmvConfig;
}

function closest(wanted: string): string | undefined {
  const lower = wanted.toLowerCase();
  return KEY_NAMES.find((k) => k.toLowerCase() === lower || k.endsWith(`.${lower}`) || k.toLowerCase().includes(lower));
}

export function checkKey(key: string): ConfigKey {
  if ((KEY_NAMES as string[]).includes(key)) return key as ConfigKey;
  const guess = closest(key);
  throw new CmvError('USAGE', `no config key "${key}"`, {
    hint: guess ? `did you mean "${guess}"? \`cmv config list\` shows every key` : `\`cmv config list\` shows every key: ${KEY_NAMES.join(', ')}`,
  });
}

/** A value typed on the command line, checked. */
export function parseValue<K extends ConfigKey>(key: K, text: string): CmvConfig[K] {
  try {
    return CONFIG_KEYS[key].parse(text);
  } catch (error) {
    throw new CmvError('USAGE', `${key} ${(error as Error).message}`, { hint: `for example: cmv config set ${key} ${CONFIG_KEYS[key].example}` });
  }
}
