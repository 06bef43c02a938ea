// Finding a model in the registry from whatever a log or a user calls it: API ids
// (`claude-opus-4-5-20251101`), Bedrock/Vertex ids, old names (`claude-3-5-haiku`), registry ids
// (`opus-4.5`) or a bare family (`sonnet`). An unknown version falls back to its family's nearest.

import { BUILTIN_MODELS, DEFAULT_MODEL_ID, type ModelFamily, type ModelInfo } from './models.js';

export type Resolution = 'exact' | 'family' | 'default';

export interface ResolvedModel {
  /** The name asked for (the log's `message.model`, or `--model`). */
  name: string;
  info: ModelInfo;
  /** exact: the version is in the registry; family: nearest version of the family; default: unknown model. */
  resolution: Resolution;
}

export interface ParsedModelName {
  family: ModelFamily;
  /** Undefined for a bare family name. */
  version?: number;
}

const FAMILIES = '(opus|sonnet|haiku)';
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

  constructor(readonly models: readonly ModelInfo[] = BUILTIN_MODELS) {
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
      const nearest = this.nearestOfFamily(parsed);
      if (nearest) return { name: asked, info: nearest, resolution: 'family' };
    }
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

export const DEFAULT_REGISTRY = new ModelRegistry();
