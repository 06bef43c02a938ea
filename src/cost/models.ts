// The model registry: what each Claude model that appears in Claude Code logs costs and how much
// context it holds, read from a maintained price table shipped as a package (@pydantic/genai-prices),
// so a price change is a package update (or a config override), never a guess in cmv's code.
// Prices are US dollars per million tokens; long-context rates apply to a whole request whose
// prompt exceeds the table's tier start (200k), on the models that have them.

import { createRequire } from 'node:module';

export interface Prices {
  input: number;
  output: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
  cacheRead: number;
}

export interface LongContext {
  /** A request whose prompt (input + cache writes + cache reads) exceeds this is priced at `prices`. */
  above: number;
  /** The context window with the long-context beta on. */
  window: number;
  prices: Prices;
}

/** Claude Code's compaction thresholds as fractions of the context window (summarisation-pipeline seed). */
export interface CompactionThresholds {
  soft: number;
  hard: number;
  circuitBreaker: number;
}

export type ModelFamily = 'opus' | 'sonnet' | 'haiku' | 'fable';

export interface ModelInfo {
  /** Registry key: `<family>-<version>`, e.g. `opus-4.5`. */
  id: string;
  family: ModelFamily;
  /** Version as a number, for choosing the newest of a family as its fallback. */
  version: number;
  displayName: string;
  contextWindow: number;
  prices: Prices;
  longContext?: LongContext;
  compaction: CompactionThresholds;
}

export const DEFAULT_COMPACTION: CompactionThresholds = { soft: 0.7, hard: 0.8, circuitBreaker: 0.95 };

/** Prices with the standard cache multipliers of an input price. */
export function pricesOf(input: number, output: number): Prices {
  return { input, output, cacheWrite5m: input * 1.25, cacheWrite1h: input * 2, cacheRead: input * 0.1 };
}

const WINDOW = 200_000;
const LONG_WINDOW = 1_000_000;

/** A price of the table: a flat number, or a base with tiers above a prompt size (long context). */
type TablePrice = number | { base: number; tiers: { start: number; price: number }[] } | undefined;
interface TableModel {
  id: string;
  name?: string;
  context_window?: number;
  prices: Record<string, TablePrice> | { constraint?: { type: string; start_date?: string }; prices: Record<string, TablePrice> }[];
}

const TABLE_ID = /^claude-(opus|sonnet|haiku|fable)-(\d+)(?:-(\d+))?$|^claude-(\d+)-(?:(\d+)-)?(opus|sonnet|haiku)/;

/** The prices in effect on `day` (YYYY-MM-DD): the last entry whose start date has come. */
function pricesOn(prices: TableModel['prices'], day: string): Record<string, TablePrice> {
  if (!Array.isArray(prices)) return prices;
  let current = prices[0].prices;
  for (const entry of prices) if (!entry.constraint || (entry.constraint.type === 'start_date' && (entry.constraint.start_date ?? '') <= day)) current = entry.prices;
  return current;
}

const base = (p: TablePrice): number | undefined => (typeof p === 'number' ? p : p?.base);
const tier = (p: TablePrice): { start: number; price: number } | undefined => (typeof p === 'object' && p ? p.tiers[0] : undefined);

/** One model of the table in cmv's terms, or undefined for a model that is not Claude's. */
export function modelFromTable(m: TableModel, day: string): ModelInfo | undefined {
  const id = TABLE_ID.exec(m.id.replace(/-latest$/, ''));
  if (!id) return undefined;
  const [family, version] = id[1] ? [id[1], id[3] ? `${id[2]}.${id[3]}` : id[2]] : [id[6], id[5] ? `${id[4]}.${id[5]}` : id[4]];
  const p = pricesOn(m.prices, day);
  const input = base(p.input_mtok);
  const output = base(p.output_mtok);
  if (input === undefined || output === undefined) return undefined;
  const prices: Prices = {
    input,
    output,
    cacheWrite5m: base(p.cache_write_mtok) ?? input * 1.25,
    cacheWrite1h: base(p.cache_write_1h_mtok) ?? input * 2,
    cacheRead: base(p.cache_read_mtok) ?? input * 0.1,
  };
  const long = tier(p.input_mtok);
  const window = m.context_window ?? WINDOW;
  return {
    id: `${family}-${Number(version)}`,
    family: family as ModelFamily,
    version: Number(version),
    displayName: m.name ?? m.id,
    contextWindow: long ? WINDOW : window,
    prices,
    // Anthropic prices a whole request past the threshold at the higher rates.
    longContext: long
      ? {
          above: long.start,
          window: Math.max(window, LONG_WINDOW),
          prices: {
            input: long.price,
            output: tier(p.output_mtok)?.price ?? output * 1.5,
            cacheWrite5m: tier(p.cache_write_mtok)?.price ?? long.price * 1.25,
            cacheWrite1h: tier(p.cache_write_1h_mtok)?.price ?? long.price * 2,
            cacheRead: tier(p.cache_read_mtok)?.price ?? long.price * 0.1,
          },
        }
      : undefined,
    compaction: DEFAULT_COMPACTION,
  };
}

let table: ModelInfo[] | undefined;

/**
 * Claude's models and prices from the maintained table of @pydantic/genai-prices (its Anthropic
 * provider), at the prices in effect today; loaded on first use (it takes ~0.15 s), so the
 * analysis threads, which are handed the table, never load it.
 */
export function builtinModels(): readonly ModelInfo[] {
  if (!table) {
    const require = createRequire(import.meta.url);
    const { findProvider } = require('@pydantic/genai-prices') as { findProvider: (o: { providerId: string }) => { models: TableModel[] } | undefined };
    const day = new Date().toISOString().slice(0, 10);
    const byId = new Map<string, ModelInfo>();
    for (const m of findProvider({ providerId: 'anthropic' })?.models ?? []) {
      const info = modelFromTable(m, day);
      if (info && !byId.has(info.id)) byId.set(info.id, info);
    }
    table = [...byId.values()];
  }
  return table;
}

/** The model assumed when a log names none (or only Claude Code's `<synthetic>` placeholders). */
export const DEFAULT_MODEL_ID = 'sonnet-4.5';
