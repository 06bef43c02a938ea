// Overrides of the model registry from a config file: `$XDG_CONFIG_HOME/cmv/config.json` (key
// "models") or the file given with `--models`. Every field is validated with an error that names it.
//
//   { "models": { "opus-4.6": { "input": 5, "output": 25 },
//                 "opus-5":   { "input": 5, "output": 25, "contextWindow": 1000000 } } }

import { readFileSync } from 'node:fs';
import { CmvError, fromSystemError } from '../errors.js';
import { builtinModels, DEFAULT_COMPACTION, pricesOf, type ModelInfo, type Prices } from './models.js';
import { ModelRegistry, parseModelName, registryId } from './registry.js';

type Json = Record<string, unknown>;

const PRICE_KEYS = ['input', 'output', 'cacheWrite5m', 'cacheWrite1h', 'cacheRead'] as const;
const MODEL_KEYS = new Set<string>([...PRICE_KEYS, 'displayName', 'contextWindow', 'longContext', 'compaction']);
const LONG_KEYS = new Set<string>([...PRICE_KEYS, 'above', 'window']);
const COMPACTION_KEYS = new Set(['soft', 'hard', 'circuitBreaker']);
const PRICE_HINT = 'prices are US dollars per million tokens, e.g. {"input": 3, "output": 15}';

function bad(source: string, where: string, problem: string, hint = PRICE_HINT): CmvError {
  return new CmvError('BAD_INPUT', `${source}: ${where} ${problem}`, { hint });
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkKeys(object: Json, allowed: Set<string>, source: string, where: string): void {
  for (const key of Object.keys(object)) {
    if (!allowed.has(key)) throw bad(source, where, `has an unknown field "${key}"`, `known fields: ${[...allowed].join(', ')}`);
  }
}

function number(value: unknown, source: string, where: string, { positive = false, max = Infinity } = {}): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (positive && value === 0) || value > max) {
    const range = max === 1 ? 'a fraction between 0 and 1' : positive ? 'a positive number' : 'a number >= 0';
    throw bad(source, where, `must be ${range}, not ${JSON.stringify(value)}`);
  }
  return value;
}

/** Prices from an override: given fields win, the rest follow the given input price (or the base). */
function pricesFrom(raw: Json, base: Prices | undefined, source: string, where: string): Prices {
  const given: Partial<Prices> = {};
  for (const key of PRICE_KEYS) if (raw[key] !== undefined) given[key] = number(raw[key], source, `${where}.${key}`);
  if (!base && (given.input === undefined || given.output === undefined)) {
    throw bad(source, where, 'is a new model and needs at least "input" and "output" prices');
  }
  // A new input price moves the cache prices with it (1.25x, 2x, 0.1x) unless they are given too.
  const start = given.input !== undefined ? pricesOf(given.input, given.output ?? base!.output) : base!;
  return { ...start, ...given };
}

function modelFrom(key: string, raw: unknown, base: ModelInfo | undefined, source: string): ModelInfo {
  const where = `models."${key}"`;
  if (!isObject(raw)) throw bad(source, where, 'must be an object of prices and limits');
  checkKeys(raw, MODEL_KEYS, source, where);
  const parsed = parseModelName(key);
  const id = parsed ? registryId(parsed) : undefined;
  if (!parsed || !id) {
    throw bad(source, where, 'is not a model name cmv understands', 'use `<family>-<version>` (opus-4.6, sonnet-4.5, haiku-4.5) or an API id (claude-opus-4-6)');
  }
  const prices = pricesFrom(raw, base?.prices, source, where);
  const contextWindow = raw.contextWindow === undefined ? (base?.contextWindow ?? 200_000) : number(raw.contextWindow, source, `${where}.contextWindow`, { positive: true });
  let longContext = base?.longContext;
  if (raw.longContext === null) longContext = undefined;
  else if (raw.longContext !== undefined) {
    if (!isObject(raw.longContext)) throw bad(source, `${where}.longContext`, 'must be an object or null');
    checkKeys(raw.longContext, LONG_KEYS, source, `${where}.longContext`);
    const lc = raw.longContext;
    longContext = {
      above: lc.above === undefined ? (longContext?.above ?? 200_000) : number(lc.above, source, `${where}.longContext.above`, { positive: true }),
      window: lc.window === undefined ? (longContext?.window ?? 1_000_000) : number(lc.window, source, `${where}.longContext.window`, { positive: true }),
      prices: pricesFrom(lc, longContext?.prices ?? pricesOf(prices.input * 2, prices.output * 1.5), source, `${where}.longContext`),
    };
  }
  let compaction = base?.compaction ?? DEFAULT_COMPACTION;
  if (raw.compaction !== undefined) {
    if (!isObject(raw.compaction)) throw bad(source, `${where}.compaction`, 'must be an object like {"soft": 0.7, "hard": 0.8, "circuitBreaker": 0.95}');
    checkKeys(raw.compaction, COMPACTION_KEYS, source, `${where}.compaction`);
    const c = raw.compaction;
    compaction = {
      soft: c.soft === undefined ? compaction.soft : number(c.soft, source, `${where}.compaction.soft`, { positive: true, max: 1 }),
      hard: c.hard === undefined ? compaction.hard : number(c.hard, source, `${where}.compaction.hard`, { positive: true, max: 1 }),
      circuitBreaker: c.circuitBreaker === undefined ? compaction.circuitBreaker : number(c.circuitBreaker, source, `${where}.compaction.circuitBreaker`, { positive: true, max: 1 }),
    };
  }
  if (raw.displayName !== undefined && typeof raw.displayName !== 'string') throw bad(source, `${where}.displayName`, 'must be a string');
  return {
    id,
    family: parsed.family,
    version: parsed.version ?? 0,
    displayName: (raw.displayName as string | undefined) ?? base?.displayName ?? id,
    contextWindow,
    prices,
    longContext,
    compaction,
  };
}

/** The registry with a config's "models" object applied over the built-in table (pure). */
export function applyModelOverrides(overrides: unknown, source: string, builtins: readonly ModelInfo[] = builtinModels()): ModelInfo[] {
  if (overrides === undefined) return [...builtins];
  if (!isObject(overrides)) throw bad(source, '"models"', 'must be an object keyed by model name');
  const models = new Map(builtins.map((m) => [m.id, m]));
  for (const [key, raw] of Object.entries(overrides)) {
    const parsed = parseModelName(key);
    const base = parsed ? models.get(registryId(parsed) ?? '') : undefined;
    const info = modelFrom(key, raw, base, source);
    models.set(info.id, info);
  }
  return [...models.values()];
}

function readJson(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw fromSystemError(error, path);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CmvError('BAD_INPUT', `${path} is not valid JSON: ${(error as Error).message}`, { hint: 'fix the file, or remove it to use the built-in prices' });
  }
}

/**
 * The model table to use: built-ins, then the user config's "models", then `--models FILE` (either
 * a config file with a "models" key or the bare models object). A missing default config is fine.
 */
export function loadModelTable(modelsFile?: string, userConfig?: string): ModelInfo[] {
  let table = [...builtinModels()];
  // The one config file cmv reads (the command passes its path: cost never locates the config).
  let config: unknown;
  if (userConfig !== undefined) {
    try {
      config = JSON.parse(readFileSync(userConfig, 'utf8'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') config = readJson(userConfig); // rethrows with a clear message
    }
  }
  if (config !== undefined && userConfig !== undefined) {
    if (!isObject(config)) throw bad(userConfig, 'the config', 'must be a JSON object', 'for example {"models": {"opus-4.6": {"input": 5, "output": 25}}}');
    table = applyModelOverrides(config.models, userConfig, table);
  }
  if (modelsFile) {
    const file = readJson(modelsFile);
    const models = isObject(file) && isObject(file.models) ? file.models : file;
    table = applyModelOverrides(models, modelsFile, table);
  }
  return table;
}

export function loadRegistry(modelsFile?: string, userConfig?: string): ModelRegistry {
  return new ModelRegistry(loadModelTable(modelsFile, userConfig));
}
