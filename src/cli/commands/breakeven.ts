// `cmv breakeven <session>`: when a trim pays for itself under prompt caching, replayed from the
// log's own usage and projected past its end.

import chalk from 'chalk';
import { resolveSessionArg } from '../../session/locate.js';
import { analyseSessionCost, type SessionCost } from '../../analyze/session-cost.js';
import { loadRegistry } from '../../cost/model-config.js';
import { configPath, loadConfig } from '../../config/config-file.js';
import type { Output } from '../output.js';
import { formatCount, table, plural, formatMoney as money, formatReduction } from '../format.js';
import { modelOf, positiveInt, trimOptionsOf, type TrimFlags } from '../flags.js';

export interface CostCommandOptions extends TrimFlags {
  model?: string;
  models?: string;
}

export interface BreakevenCommandOptions extends CostCommandOptions {
  at?: string;
}

export async function breakevenCommand(target: string, opts: BreakevenCommandOptions, out: Output): Promise<void> {
  const at = positiveInt(opts.at, '--at');
  const config = (await loadConfig()).values;
  const registry = loadRegistry(opts.models, configPath());
  const path = await resolveSessionArg(target);
  const cost = await analyseSessionCost(path, { registry, model: modelOf(opts.model, config), at, trim: trimOptionsOf(opts, config) });
  out.render(cost, renderBreakeven, breakevenJson);
}

/** The issue's fields first, in its order; then the detail behind them. */
export function breakevenJson(c: SessionCost): unknown {
  return {
    model: c.model,
    tokens: c.tokens,
    reduction: c.reduction,
    penalty: c.penalty,
    savingPerTurn: c.savingPerTurn,
    breakEvenTurns: c.breakEvenTurns,
    projection: c.projection,
    replay: c.replay,
    path: c.path,
    sessionId: c.sessionId ?? null,
    kind: c.kind,
    pricedAs: c.pricedAs,
    modelResolution: c.modelResolution,
    at: c.at,
    calls: c.calls,
    replayedCalls: c.replayedCalls,
    cold: c.cold,
    ttlSeconds: c.ttlSeconds,
    pace: c.pace,
    thresholds: c.thresholds,
    calibration: c.calibration,
    composition: c.composition,
    subscriptionNote: c.subscriptionNote,
  };
}

export { money };

export function ttlLabel(seconds: number): string {
  return seconds >= 3600 ? '1-hour' : `${Math.round(seconds / 60)}-minute`;
}

export function breakEvenLabel(turns: number | null): string {
  if (turns === null) return 'never within 60 calls';
  return turns === 1 ? 'on the first call' : `after ${plural(turns, 'call')}`;
}

function thresholdCell(turns: number | null): string {
  if (turns === null) return 'never at this pace';
  return turns === 0 ? 'already past' : `in ${plural(turns, 'call')}`;
}

export function renderBreakeven(c: SessionCost): string {
  const lines: string[] = [];
  const r = c.replay;
  lines.push(chalk.bold(c.sessionId ?? c.path) + (c.kind === 'subagent' ? chalk.dim(' (subagent transcript)') : ''));
  lines.push(chalk.dim(c.path));
  const fallback =
    c.modelResolution === 'exact'
      ? ''
      : chalk.yellow(
          ` (${c.modelResolution === 'family' ? 'newest of its family' : c.modelResolution === 'unpriced' ? 'not in the price table: left unpriced' : 'the log names no model: default prices'})`,
        );
  const override = c.priceOverride ? chalk.yellow(` (every call priced as ${c.priceOverride}, not the log's own model)`) : '';
  lines.push(`model ${c.model || '?'} · priced as ${c.pricedAs}${fallback}${override}`);
  lines.push('');
  const source = r.source === 'usage' ? 'from the usage the log recorded' : chalk.yellow('estimated from counted tokens (the log has no usage figures)');
  lines.push(chalk.bold(`Replay: ${plural(r.calls, 'call')} cost ${money(r.cost)}`) + chalk.dim(` ${source}`));
  lines.push(`  cache reads ${formatCount(r.cacheReadTokens)} · cache writes ${formatCount(r.cacheWriteTokens)} · input ${formatCount(r.inputTokens)} · output ${formatCount(r.outputTokens)} tokens`);
  lines.push(`  ${formatCount(r.warmCalls)} of ${formatCount(c.calls)} main calls read mostly from the cache · ${r.ttlRewrites} rewrote it after a gap over the ${ttlLabel(c.ttlSeconds)} TTL`);
  if (r.byModel.length > 1) lines.push(chalk.dim(`  ${r.byModel.map((m) => `${m.model} ${plural(m.calls, 'call')} ${money(m.cost)}`).join(' · ')}`));
  lines.push('');
  const when = c.replayedCalls > 0 ? `after call ${c.at} of ${c.calls} (the ${plural(c.replayedCalls, 'call')} after it replayed from the log)` : `now (after call ${c.at ?? 0})`;
  lines.push(chalk.bold(`Trim ${when}: ${formatCount(c.tokens.before)} → ${formatCount(c.tokens.after)} tokens of context (${formatReduction(c.reduction)})`));
  if (c.tokens.before === c.tokens.after) {
    lines.push('  the trim removes nothing from this context: nothing to win');
  } else {
    lines.push(
      `  warm resume (cache still live): the first call costs ${money(c.penalty)} more, each later call saves ${money(c.savingPerTurn)} → pays for itself ${chalk.bold(breakEvenLabel(c.breakEvenTurns))}`,
    );
    const coldFirst = c.cold.penalty <= 0 ? `saves ${money(-c.cold.penalty)} on the first call` : `costs ${money(c.cold.penalty)} more on the first call`;
    lines.push(`  cold resume (after a break over the ${ttlLabel(c.ttlSeconds)} TTL): ${coldFirst} → pays for itself ${breakEvenLabel(c.cold.breakEvenTurns)}`);
  }
  lines.push('');
  const gap = c.pace.medianGapSeconds === null ? '?' : `${Math.round(c.pace.medianGapSeconds)} s`;
  lines.push(chalk.bold('Next calls') + chalk.dim(` at this session's pace: +${formatCount(c.pace.growthPerTurn)} tokens, ${gap} apart, ${formatCount(c.pace.outputPerTurn)} output tokens per call`));
  const rows = [['calls', 'without trim', 'with trim', 'saved', 'context without', 'with']];
  for (const p of c.projection) {
    rows.push([String(p.turns), money(p.withoutTrim), money(p.withTrim), money(p.withoutTrim - p.withTrim), formatCount(p.contextWithoutTrim), formatCount(p.contextWithTrim)]);
  }
  lines.push(table(rows, ['right', 'right', 'right', 'right', 'right', 'right']));
  const t = c.thresholds;
  lines.push('');
  lines.push(chalk.bold(`Compaction thresholds`) + chalk.dim(` (${formatCount(t.window)}-token window)`));
  const thresholdRows = [
    ['', 'tokens', 'without trim', 'with trim'],
    ...(['soft', 'hard', 'circuitBreaker'] as const).map((k) => [
      k === 'circuitBreaker' ? 'circuit breaker' : k,
      formatCount(t[k].tokens),
      thresholdCell(t[k].withoutTrim),
      thresholdCell(t[k].withTrim),
    ]),
  ];
  lines.push(table(thresholdRows, ['left', 'right', 'right', 'right']));
  lines.push('');
  if (!c.calibration.fitted) lines.push(chalk.dim(`tokenizer scaled by ${c.calibration.ratio} (default calibration: too few usage figures to fit this log)`));
  lines.push(chalk.dim(c.subscriptionNote));
  return lines.join('\n');
}
