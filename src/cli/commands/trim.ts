// `cmv trim <session>`: the structurally lossless trim, written as a new session by default.

import chalk from 'chalk';
import { resolveSessionArg } from '../../session/locate.js';
import { trimToDestination, type AppliedTrim, type TrimDestination } from '../../trim/apply.js';
import type { Output } from '../output.js';
import { ruleLabel } from '../../trim/rule-labels.js';
import { loadConfig } from '../../config/config-file.js';
import { CmvError } from '../../errors.js';
import { formatBytes, formatCount, table, plural, formatReduction } from '../format.js';
import { trimOptionsOf, type TrimFlags } from '../flags.js';

export interface TrimCommandOptions extends TrimFlags {
  output?: string;
  inPlace?: boolean;
  force?: boolean;
  dryRun?: boolean;
  projectDir?: string;
}

export function destinationOf(opts: TrimCommandOptions): TrimDestination {
  const chosen = [opts.output !== undefined, opts.inPlace === true, opts.dryRun === true].filter(Boolean).length;
  if (chosen > 1) throw new CmvError('USAGE', 'choose one of -o, --in-place and --dry-run', { hint: 'without any of them cmv writes a new session' });
  if (opts.dryRun) return { kind: 'dry-run' };
  if (opts.inPlace) return { kind: 'in-place' };
  if (opts.output !== undefined) return { kind: 'file', path: opts.output, force: opts.force };
  return { kind: 'new-session' };
}

export async function trimCommand(target: string, opts: TrimCommandOptions, out: Output): Promise<void> {
  const destination = destinationOf(opts);
  const config = (await loadConfig()).values;
  const input = await resolveSessionArg(target);
  const applied = await trimToDestination(input, trimOptionsOf(opts, config), destination, opts.projectDir);
  for (const warning of applied.warnings ?? []) out.warn(warning);
  out.render(applied, renderTrim, trimJson);
}

export function trimJson(applied: AppliedTrim): unknown {
  const r = applied.result;
  return {
    input: { path: r.input.path, bytes: r.input.bytes, tokens: r.input.tokens, lines: r.input.lines },
    output: { path: applied.written ?? null, sessionId: applied.sessionId ?? null, bytes: r.output.bytes, tokens: r.output.tokens, lines: r.output.lines },
    reduction: r.reduction,
    removed: r.removed,
    malformedLinesKept: r.malformedLinesKept,
    verify: r.verify,
    budget: r.budget ?? null,
    backup: applied.backup ?? null,
    resumeCommand: applied.resumeCommand ?? null,
    ...(destinationWasInPlace(applied) ? { unchanged: applied.unchanged === true, carried: applied.carried ?? null, warnings: applied.warnings ?? [] } : {}),
  };
}

function destinationWasInPlace(applied: AppliedTrim): boolean {
  return applied.warnings !== undefined;
}

export function renderTrim(applied: AppliedTrim): string {
  const r = applied.result;
  const lines: string[] = [];
  lines.push(
    `${chalk.bold('Trimmed')} ${formatCount(r.input.tokens)} → ${formatCount(r.output.tokens)} tokens (${chalk.green(`${formatReduction(r.reduction.tokens)}`)}), ` +
      `${formatBytes(r.input.bytes)} → ${formatBytes(r.output.bytes)} (${formatReduction(r.reduction.bytes)})`,
  );
  const v = r.verify;
  lines.push(
    `${v.ok ? chalk.green('verified') : chalk.red('NOT verified')}: user texts ${v.texts.user.kept}/${v.texts.user.total}, assistant texts ${v.texts.assistant.kept}/${v.texts.assistant.total}, tool pairs ${v.toolPairs.intact}/${v.toolPairs.total}`,
  );
  const rows = Object.entries(r.removed)
    .filter(([, n]) => n > 0)
    .map(([rule, n]) => [`  ${ruleLabel(rule)}`, formatCount(n)]);
  if (rows.length) lines.push(table(rows, ['left', 'right']));
  if (r.malformedLinesKept.length) lines.push(chalk.yellow(`lines that are not one JSON record, copied as they are: ${r.malformedLinesKept.join(', ')}`));
  if (r.budget) {
    lines.push(`budget ${formatCount(r.budget.budget)}: ${formatCount(r.budget.tokensBefore)} → ${formatCount(r.budget.tokensAfter)} tokens, ${plural(r.budget.evicted.length, 'eviction')}`);
    for (const e of r.budget.evicted)
      lines.push(chalk.dim(`  episode ${e.episode} (${e.kind}) level ${e.level}: ${plural(e.calls, 'call')} [${e.tools.join(', ')}], -${formatCount(e.tokensFreed)} tokens`));
  }
  if (applied.unchanged) lines.push(chalk.dim('the log is trimmed already: left as it was, no backup kept'));
  else if (!applied.written) lines.push(chalk.dim('dry run: nothing written'));
  else lines.push(`wrote ${applied.written}`);
  if (applied.carried?.lines) lines.push(`${applied.carried.lines} lines Claude Code wrote during the trim were carried into it`);
  if (applied.backup) lines.push(chalk.dim(`backup: ${applied.backup} (\`cmv restore\` brings the original back, with lines written since)`));
  if (applied.resumeCommand) lines.push(`resume with: ${chalk.bold(applied.resumeCommand)}`);
  return lines.join('\n');
}
