// The model registry: names from real logs resolve to the right prices, unknown versions fall back
// to their family, and config overrides are applied and validated.

import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { builtinModels } from '../../src/cost/models.js';
import { builtinRegistry, ModelRegistry, parseModelName, pricingOverride } from '../../src/cost/registry.js';
import { applyModelOverrides, loadModelTable, loadRegistry } from '../../src/cost/model-config.js';
import { configPath } from '../../src/config/config-file.js';
import { callCost } from '../../src/cost/pricing.js';
import { CmvError } from '../../src/errors.js';
import { CORPUS_DIR, HAS_CORPUS } from '../helpers/corpus.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cmv-models-'));
  dirs.push(dir);
  return dir;
}

describe('model names', () => {
  it.each([
    ['claude-opus-4-20250514', 'opus-4'],
    ['claude-opus-4-1-20250805', 'opus-4.1'],
    ['claude-opus-4-5-20251101', 'opus-4.5'],
    ['claude-opus-4-6', 'opus-4.6'],
    ['claude-sonnet-4-20250514', 'sonnet-4'],
    ['claude-sonnet-4-5-20250929', 'sonnet-4.5'],
    ['claude-sonnet-4-6', 'sonnet-4.6'],
    ['claude-haiku-4-5-20251001', 'haiku-4.5'],
    ['claude-3-5-haiku-20241022', 'haiku-3.5'],
    ['us.anthropic.claude-sonnet-4-5-20250929-v1:0', 'sonnet-4.5'],
    ['claude-opus-4-5@20251101', 'opus-4.5'],
    ['claude-sonnet-4-5-20250929[1m]', 'sonnet-4.5'],
    ['opus-4.5', 'opus-4.5'],
  ])('resolves %s to %s exactly', (name, id) => {
    const r = builtinRegistry().resolve(name);
    expect(r.info.id).toBe(id);
    expect(r.resolution).toBe('exact');
  });

  it('does not read a date as a minor version', () => {
    expect(parseModelName('claude-opus-4-20250514')).toEqual({ family: 'opus', version: 4 });
  });

  it.each([
    ['claude-opus-4-7', 'opus-4.7', 5],
    ['claude-opus-4-8', 'opus-4.8', 5],
    ['claude-opus-5', 'opus-5', 5],
    ['claude-opus-5-5', 'opus-5.5', 4],
    ['claude-sonnet-5', 'sonnet-5', 2],
    ['claude-fable-5', 'fable-5', 10],
  ])('prices %s from the table (%s, $%s input), not by its family', (name, id, input) => {
    expect(builtinRegistry().resolve(name)).toMatchObject({ resolution: 'exact', info: { id, prices: { input } } });
  });

  it('takes a bare family name as its newest model', () => {
    expect(builtinRegistry().resolve('sonnet')).toMatchObject({ resolution: 'family', info: { id: 'sonnet-5' } });
  });

  it('leaves an unknown model unpriced and says so, rather than guessing', () => {
    for (const name of ['gpt-4o', 'claude-opus-9', 'claude-sonnet-7-1']) {
      const r = builtinRegistry().resolve(name);
      expect(r.resolution, name).toBe('unpriced');
      expect(r.info.prices.input).toBe(0);
    }
    expect(builtinRegistry().resolve(undefined).resolution).toBe('default');
  });

  it('refuses to price every call as a model it does not know (--model and config alike)', () => {
    expect(() => pricingOverride(builtinRegistry(), 'gpt-5')).toThrow(/not a model in the price table/);
    expect(pricingOverride(builtinRegistry(), 'opus-4.5').info.id).toBe('opus-4.5');
  });
});

describe('prices', () => {
  it('reads every price of a model from the table', () => {
    expect(builtinModels().length).toBeGreaterThan(15);
    for (const m of builtinModels()) {
      expect(m.prices.input, m.id).toBeGreaterThan(0);
      expect(m.prices.cacheWrite5m, m.id).toBeGreaterThanOrEqual(m.prices.input);
      expect(m.prices.cacheRead, m.id).toBeLessThan(m.prices.input);
      expect(m.compaction).toEqual({ soft: 0.7, hard: 0.8, circuitBreaker: 0.95 });
    }
  });

  it('has the published list prices', () => {
    const price = (id: string) => builtinRegistry().get(id)!.prices;
    expect(price('opus-4.1')).toMatchObject({ input: 15, output: 75, cacheRead: 1.5 });
    expect(price('opus-4.6')).toMatchObject({ input: 5, output: 25, cacheWrite5m: 6.25, cacheWrite1h: 10 });
    expect(price('sonnet-4.5')).toMatchObject({ input: 3, output: 15, cacheWrite5m: 3.75 });
    expect(price('haiku-3.5')).toMatchObject({ input: 0.8, output: 4, cacheWrite5m: 1 });
  });

  it('charges long-context rates only above 200k prompt tokens on models that have them', () => {
    const call = (prompt: number) => ({ input: 0, cacheWrite5m: 0, cacheWrite1h: 0, cacheRead: prompt, output: 1_000_000 });
    const sonnet = builtinRegistry().get('sonnet-4.5')!;
    const opus45 = builtinRegistry().get('opus-4.5')!;
    expect(callCost(call(200_000), sonnet)).toBeCloseTo(0.06 + 15, 10);
    expect(callCost(call(200_001), sonnet)).toBeCloseTo(200_001 * 0.6e-6 + 22.5, 10);
    expect(callCost(call(300_000), opus45)).toBeCloseTo(0.15 + 25, 10);
  });
});

describe('overrides', () => {
  it('changes the prices given and moves the cache prices with a new input price', () => {
    const table = applyModelOverrides({ 'opus-4.6': { input: 4 } }, 'test.json');
    const opus = new ModelRegistry(table).get('opus-4.6')!;
    expect(opus.prices).toEqual({ input: 4, output: 25, cacheWrite5m: 5, cacheWrite1h: 8, cacheRead: 0.4 });
  });

  it('adds a model the table does not have, under an API id too', () => {
    const table = applyModelOverrides({ 'claude-opus-5': { input: 5, output: 25, contextWindow: 1_000_000 } }, 'test.json');
    const r = new ModelRegistry(table).resolve('claude-opus-5-20260701');
    expect(r).toMatchObject({ resolution: 'exact', info: { id: 'opus-5', contextWindow: 1_000_000 } });
  });

  it.each([
    [{ 'opus-4.6': { input: -1 } }, /models\."opus-4\.6"\.input must be a number >= 0, not -1/],
    [{ 'opus-4.6': { inptu: 3 } }, /unknown field "inptu"/],
    [{ 'opus-9': { input: 3 } }, /new model and needs at least "input" and "output"/],
    [{ 'gpt-4': { input: 3, output: 4 } }, /not a model name cmv understands/],
    [{ 'opus-4.6': { compaction: { soft: 1.5 } } }, /compaction\.soft must be a fraction between 0 and 1/],
    [[1, 2], /"models" must be an object/],
  ])('rejects %j with an error that names the field', (models, message) => {
    try {
      applyModelOverrides(models, 'test.json');
      expect.unreachable('should have thrown');
    } catch (error) {
      expect(error).toBeInstanceOf(CmvError);
      expect((error as CmvError).code).toBe('BAD_INPUT');
      expect((error as CmvError).message).toMatch(/^test\.json: /);
      expect((error as CmvError).message).toMatch(message);
    }
  });

  it('reads $XDG_CONFIG_HOME/cmv/config.json, then lets --models win', () => {
    const config = tempDir();
    mkdirSync(join(config, 'cmv'));
    writeFileSync(join(config, 'cmv', 'config.json'), JSON.stringify({ models: { 'opus-4.6': { input: 4, output: 20 }, 'haiku-4.5': { output: 6 } } }));
    const file = join(config, 'mine.json');
    writeFileSync(file, JSON.stringify({ 'opus-4.6': { output: 30 } }));
    const env = { XDG_CONFIG_HOME: config, HOME: config };
    const fromConfig = new ModelRegistry(loadModelTable(undefined, configPath(env)));
    expect(fromConfig.get('opus-4.6')!.prices).toMatchObject({ input: 4, output: 20 });
    const both = loadRegistry(file, configPath(env));
    expect(both.get('opus-4.6')!.prices).toMatchObject({ input: 4, output: 30 });
    expect(both.get('haiku-4.5')!.prices).toMatchObject({ input: 1, output: 6 });
  });

  it('is fine without a config file, and says so when one is not JSON', () => {
    const config = tempDir();
    expect(loadModelTable(undefined, configPath({ XDG_CONFIG_HOME: config }))).toHaveLength(builtinModels().length);
    mkdirSync(join(config, 'cmv'));
    writeFileSync(join(config, 'cmv', 'config.json'), '{ models: ');
    expect(() => loadModelTable(undefined, configPath({ XDG_CONFIG_HOME: config }))).toThrow(/config\.json is not valid JSON/);
    expect(() => loadModelTable(join(config, 'missing.json'), configPath({ XDG_CONFIG_HOME: tempDir() }))).toThrow(/no such file/);
  });
});

describe.skipIf(!HAS_CORPUS)('the corpora', () => {
  it('has every model its logs name priced from the table, the advisors of their responses too', () => {
    const names = new Set<string>();
    for (const dir of [CORPUS_DIR, join(CORPUS_DIR, '..', 'claude-code-recent')]) {
      for (const file of readdirSync(dir, { recursive: true }) as string[]) {
        if (!file.endsWith('.jsonl')) continue;
        for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
          if (!line.includes('"model"')) continue;
          let message: { model?: unknown; usage?: { iterations?: { model?: unknown }[] } } | undefined;
          try {
            message = (JSON.parse(line) as { message?: typeof message }).message;
          } catch {
            continue;
          }
          if (typeof message?.model === 'string') names.add(message.model);
          // The advisor's model, priced for its calls within a response (usage-record.ts).
          for (const it of Array.isArray(message?.usage?.iterations) ? message.usage.iterations : []) if (typeof it?.model === 'string') names.add(it.model);
        }
      }
    }
    names.delete('<synthetic>');
    expect(names.size).toBeGreaterThan(8);
    const resolved = [...names].map((n) => [n, builtinRegistry().resolve(n).resolution]);
    expect(resolved.filter(([, r]) => r !== 'exact')).toEqual([]);
  });
});
