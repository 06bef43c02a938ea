// Finding a model in the registry from whatever a log or a user calls it: API ids
// (`claude-opus-4-5-20251101`), Bedrock/Vertex ids, old names (`claude-3-5-haiku`), registry ids
// (`opus-4.5`) or a bare family (`sonnet`). An unknown version falls back to its family's nearest.

import { CmvError } from '../errors.js';
import { builtinModels, DEFAULT_COMPACTION, DEFAULT_MODEL_ID, type ModelFamily, type ModelInfo } from './models.js';

export type Resolution = 'exact' | 'family' | 'default' | 'unpriced';

export interface ResolvedModel {
  /** The name asked for (the log's `message.model`, or `--model`). */
  name: string;
  info: ModelInfo;
  /**
   * exact: the model is in the price table; family: a bare family name (`opus`), its newest;
   * default: the log names no model (the default's prices); unpriced: a model the table does not
   * know, left unpriced (zero) and named as such in reports rather than priced as a guess.
   */
  resolution: Resolution;
}

export interface ParsedModelName {
  family: ModelFamily;
  /** Undefined for a bare family name. */
  version?: number;
}

const FAMILIES = '(opus|sonnet|haiku|fable)';
const NEW_STYLE = new RegExp(`claude-${FAMILIES}-(\\d+)(?:-(\\d{1,2}))?(?=$|[^0-9])`);
const OLD_STYLE = new RegExp(`claude-(\\d+)(?:[-.](\\d))?-${FAMILIES}`);
const REGISTRY_STYLE = new RegExp(`^${FAMILIES}(?:[- ]?(\\d+)(?:[.-](\\d{1,2}))?)?$`);

function version(major: string, minor: string | undefined): number {
  return Number(minor === undefined ? major : `${major}.${minor}`);
}

/** Reads family and version from a model name; undefined when it names no Claude model. */
export function parseModelName(raw: string): ParsedModelName | undefined {
  const name = raw
    .trim()
    .toLowerCase()
    .replace(/\[[^\]]*\]$/, '') // Claude Code's `[1m]` suffix
    .replace(/@.*$/, '') // Vertex `@20251101`
    .replace(/-v\d+(:\d+)?$/, ''); // Bedrock `-v1:0`
  let m = REGISTRY_STYLE.exec(name);
  if (m) return { family: m[1] as ModelFamily, version: m[2] === undefined ? undefined : version(m[2], m[3]) };
  m = NEW_STYLE.exec(name);
  if (m) return { family: m[1] as ModelFamily, version: version(m[2], m[3]) };
  m = OLD_STYLE.exec(name);
  if (m) return { family: m[3] as ModelFamily, version: version(m[1], m[2]) };
  return undefined;
}

export function registryId(parsed: ParsedModelName): string | undefined {
  return parsed.version === undefined ? undefined : `${parsed.family}-${parsed.version}`;
}

export class ModelRegistry {
  private readonly byId = new Map<string, ModelInfo>();

  constructor(readonly models: readonly ModelInfo[] = builtinModels()) {
    for (const info of models) this.byId.set(info.id, info);
  }

  get(id: string): ModelInfo | undefined {
    return this.byId.get(id);
  }

  resolve(name: string | undefined): ResolvedModel {
    const asked = name ?? '';
    const parsed = name ? parseModelName(name) : undefined;
    if (parsed) {
      const id = registryId(parsed);
      const exact = id ? this.byId.get(id) : undefined;
      if (exact) return { name: asked, info: exact, resolution: 'exact' };
      // A bare family name (Claude Code's `opus`, `sonnet` aliases) means its newest model.
      const newest = parsed.version === undefined ? this.nearestOfFamily(parsed) : undefined;
      if (newest) return { name: asked, info: newest, resolution: 'family' };
    }
    if (name) return { name: asked, info: unpriced(asked), resolution: 'unpriced' };
    const fallback = this.byId.get(DEFAULT_MODEL_ID) ?? this.models[0];
    return { name: asked, info: fallback, resolution: 'default' };
  }

  /** The family's version nearest to the one asked for (ties go to the newer); the newest for a bare family. */
  private nearestOfFamily(parsed: ParsedModelName): ModelInfo | undefined {
    const family = this.models.filter((m) => m.family === parsed.family);
    if (family.length === 0) return undefined;
    const target = parsed.version;
    if (target === undefined) return family.reduce((best, m) => (m.version > best.version ? m : best));
    return family.reduce((best, m) => {
      const d = Math.abs(m.version - target);
      const bestD = Math.abs(best.version - target);
      return d < bestD || (d === bestD && m.version > best.version) ? m : best;
    });
  }
}

/**
 * The model a user asked every call to be priced as (`--model`, or the config's `model`): one the
 * price table knows, or an error that says so. The same check for both, so neither is a guess.
 */
export function pricingOverride(registry: ModelRegistry, name: string): ResolvedModel {
  const resolved = registry.resolve(name);
  if (resolved.resolution === 'unpriced' || resolved.resolution === 'default') {
    const known = registry.models
      .map((m) => m.id)
      .slice(0, 12)
      .join(', ');
    throw new CmvError('USAGE', `"${name}" is not a model in the price table, so nothing can be priced as it`, {
      hint: `use one of ${known}, a Claude API id (claude-opus-4-6) or a family (opus), or add its prices under "models" in the config`,
    });
  }
  return resolved;
}

let defaultRegistry: ModelRegistry | undefined;

/** The registry of the built-in price table (loaded on first use). */
export function builtinRegistry(): ModelRegistry {
  return (defaultRegistry ??= new ModelRegistry());
}

/** A model the price table does not know: zero prices, so it adds nothing it cannot justify. */
export function unpriced(name: string): ModelInfo {
  const zero = { input: 0, output: 0, cacheWrite5m: 0, cacheWrite1h: 0, cacheRead: 0 };
  return { id: 'unpriced', family: 'sonnet', version: 0, displayName: `${name} (not in the price table)`, contextWindow: 200_000, prices: zero, compaction: DEFAULT_COMPACTION };
}
