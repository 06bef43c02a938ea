// The model registry: what each Claude model that appears in Claude Code logs costs and how much
// context it holds. A plain data table, so a price change is a one-line edit (or a config override).
//
// Prices are Anthropic's published list prices in US dollars per million tokens, as of February
// 2026 (platform.claude.com pricing page): cache writes are 1.25x input (5-minute TTL) or 2x (1-hour
// TTL), cache reads 0.1x. Long-context rates apply to a whole request whose prompt exceeds 200k
// tokens, on the models that offer the 1M-token window (beta).

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

export type ModelFamily = 'opus' | 'sonnet' | 'haiku';

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

/** Long-context pricing: 2x input and 1.5x output above 200k prompt tokens (cache rates follow input). */
function longContextOf(input: number, output: number): LongContext {
  return { above: WINDOW, window: LONG_WINDOW, prices: pricesOf(input * 2, output * 1.5) };
}

function model(id: string, displayName: string, input: number, output: number, long = false): ModelInfo {
  const [family, version] = id.split('-') as [ModelFamily, string];
  return {
    id,
    family,
    version: Number(version),
    displayName,
    contextWindow: WINDOW,
    prices: pricesOf(input, output),
    longContext: long ? longContextOf(input, output) : undefined,
    compaction: DEFAULT_COMPACTION,
  };
}

export const BUILTIN_MODELS: readonly ModelInfo[] = [
  model('opus-4', 'Claude Opus 4', 15, 75),
  model('opus-4.1', 'Claude Opus 4.1', 15, 75),
  model('opus-4.5', 'Claude Opus 4.5', 5, 25),
  model('opus-4.6', 'Claude Opus 4.6', 5, 25, true),
  model('sonnet-4', 'Claude Sonnet 4', 3, 15, true),
  model('sonnet-4.5', 'Claude Sonnet 4.5', 3, 15, true),
  model('sonnet-4.6', 'Claude Sonnet 4.6', 3, 15, true),
  model('haiku-3.5', 'Claude Haiku 3.5', 0.8, 4),
  model('haiku-4.5', 'Claude Haiku 4.5', 1, 5),
];

/** The model assumed when a log names none (or only Claude Code's `<synthetic>` placeholders). */
export const DEFAULT_MODEL_ID = 'sonnet-4.5';
