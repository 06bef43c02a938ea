// What one API call costs at a model's prices: input, cache writes (5m and 1h), cache reads and
// output, at the long-context rates when the model has them and the prompt is past their threshold.

import type { ModelInfo, Prices } from './models.js';
import { promptOf, type ApiCall } from './calls.js';

export type CallTokens = Pick<ApiCall, 'input' | 'cacheWrite5m' | 'cacheWrite1h' | 'cacheRead' | 'output'>;

const PER_TOKEN = 1 / 1_000_000;

export function pricesFor(model: ModelInfo, prompt: number): Prices {
  return model.longContext && prompt > model.longContext.above ? model.longContext.prices : model.prices;
}

/** Dollars for one call. */
export function callCost(call: CallTokens, model: ModelInfo): number {
  const p = pricesFor(model, promptOf(call));
  return (call.input * p.input + call.cacheWrite5m * p.cacheWrite5m + call.cacheWrite1h * p.cacheWrite1h + call.cacheRead * p.cacheRead + call.output * p.output) * PER_TOKEN;
}

/** Rounds dollars to a millionth for reports (sums are taken before rounding). */
export function dollars(value: number): number {
  return Math.round(value * 1_000_000) / 1_000_000;
}
