// `cmv analyze [PATH|GLOB ...]`: trim and price every session of a folder (or of every Claude
// config dir) in memory, over worker threads, and report the batch like the CMV paper's evaluation.

import { GLOB_CHARS } from '../../analyze/batch-files.js';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import chalk, { chalkStderr } from 'chalk';
import { analysePaths, type AnalysisReport } from '../../analyze/analysis.js';
import type { BatchProgress } from '../../analyze/batch.js';
import { BUCKETS } from '../../analyze/aggregate.js';
import { toCsv, toMarkdown } from '../../analyze/report-formats.js';
import { SUBSCRIPTION_NOTE } from '../../analyze/session-cost.js';
import { HEAVY_TOOL_SHARE, LIGHT_TOOL_SHARE } from '../../analyze/session-summary.js';
import { loadModelTable } from '../../cost/model-config.js';
import { CmvError, fromSystemError } from '../../errors.js';
import { Output } from '../output.js';
import { exitCodeFor, EXIT_OK } from '../exit-codes.js';
import { formatBytes, formatCount, formatPercent, table, plural, formatReduction } from '../format.js';
import { histogram, pairedHistogram, reductionBins } from '../charts.js';
import { ProgressDisplay } from '../progress.js';
import { breakEvenLabel, money, type CostCommandOptions } from './breakeven.js';
import { modelOf, positiveInt, trimOptionsOf } from '../flags.js';
import { configPath, loadConfig } from '../../config/config-file.js';

export interface AnalyzeCommandOptions extends CostCommandOptions {
  jobs?: string;
  json?: boolean;
  csv?: boolean;
  md?: boolean;
  svg?: string;
}

/** Charts are drawn this wide at most: wider bars read no better. */
const MAX_CHART_WIDTH = 80;

export async function analyzeCommand(paths: string[], opts: AnalyzeCommandOptions, out: Output): Promise<number> {
  if ([opts.json, opts.csv, opts.md].filter(Boolean).length > 1) throw new CmvError('USAGE', 'choose one of --json, --csv and --md', { hint: 'without any of them cmv prints a readable report' });
  // Checked before the batch: a report of nothing, then the error, helps no one.
  const absent = paths.filter((p) => !GLOB_CHARS.test(p) && !existsSync(p));
  if (absent.length > 0)
    throw new CmvError('NOT_FOUND', `no such file or folder: ${absent.join(', ')}`, { hint: 'check the path; with no path cmv analyses every session in your Claude config dirs' });
  if (opts.svg !== undefined && statSync(opts.svg, { throwIfNoEntry: false })?.isFile()) {
    throw new CmvError('USAGE', `--svg ${opts.svg} is a file: the plots go into a folder`, { hint: 'name a folder (it is created if missing)' });
  }
  const config = (await loadConfig()).values;
  // Progress and charts only for a person at a terminal: never around --json, --csv or --md.
  const forPeople = !opts.json && !opts.csv && !opts.md;
  const plain = process.env.TERM === 'dumb';
  const progress = forPeople && process.stderr.isTTY === true ? new ProgressDisplay(process.stderr, { plain, ink: chalkStderr }) : undefined;
  const chartWidth = forPeople && process.stdout.isTTY === true ? Math.min(MAX_CHART_WIDTH, process.stdout.columns || MAX_CHART_WIDTH) : undefined;
  const batch = {
    jobs: positiveInt(opts.jobs, '--jobs'),
    models: loadModelTable(opts.models, configPath()),
    model: modelOf(opts.model, config),
    trim: trimOptionsOf(opts, config),
    onStart: progress && ((p: BatchProgress) => progress.update(p)),
    onProgress: progress && ((p: BatchProgress) => progress.update(p)),
  };
  let report: AnalysisReport;
  try {
    report = await analysePaths(paths, batch);
  } finally {
    progress?.clear();
  }
  if (opts.svg) await writePlots(report, opts.svg, out);

  if (opts.csv) new Output({}).render(report, (r) => toCsv(r.sessions, r.failed));
  else if (opts.md) new Output({}).render(report, (r) => toMarkdown(r.aggregate, r.sessions, r.failed));
  else out.render(report, (r) => renderAnalyze(r, chartWidth), analyzeJson);
  // Every file failed: the batch ran, but the input was bad.
  return report.sessions.length === 0 && report.failed.length > 0 ? exitCodeFor('BAD_INPUT') : EXIT_OK;
}

async function writePlots(report: AnalysisReport, dir: string, out: Output): Promise<void> {
  const { renderPlots } = await import('../../analyze/plots.js');
  const plots = await renderPlots(report.aggregate, report.sessions);
  const target = resolve(dir);
  try {
    mkdirSync(target, { recursive: true });
    for (const plot of plots) writeFileSync(join(target, plot.file), plot.svg);
  } catch (error) {
    throw fromSystemError(error, target);
  }
  out.info(`wrote ${plots.map((p) => p.file).join(', ')} to ${target}`);
}

export function analyzeJson(r: AnalysisReport): unknown {
  return {
    aggregate: r.aggregate,
    sessions: r.sessions.map(({ curve: _curve, ...session }) => session),
    failed: r.failed,
    skipped: r.skipped,
  };
}

/** The report as text; with `chartWidth` (a terminal) the distributions drawn as charts too. */
export function renderAnalyze(r: AnalysisReport, chartWidth?: number): string {
  const a = r.aggregate;
  const lines: string[] = [];
  const speed = r.seconds > 0 ? ` (${(a.bytes / 1024 / 1024 / r.seconds).toFixed(1)} MB/s)` : '';
  lines.push(
    chalk.bold(`Analysed ${plural(a.files, 'file')}`) +
      ` (${plural(a.sessions, 'session')}, ${plural(a.subagents, 'subagent transcript')}), ${formatBytes(a.bytes)}, in ${r.seconds.toFixed(1)} s` +
      chalk.dim(` with ${r.workers + 1} thread${r.workers > 0 ? 's' : ''}${speed}`),
  );
  lines.push(`The logged calls cost ${chalk.bold(money(a.cost))} at list prices; ${formatCount(a.tokens)} tokens of context in all.`);
  if (r.priceOverride) lines.push(chalk.yellow(`Every call priced as ${r.priceOverride.pricedAs} (model ${r.priceOverride.model} asked for), not the model its log names.`));
  if (r.unpricedModels.length > 0)
    lines.push(chalk.yellow(`Not priced (not in the price table, @pydantic/genai-prices): ${r.unpricedModels.join(', ')}; add their prices under "models" in the config.`));
  if (a.repeatedCost > 0) lines.push(chalk.dim(`Each API response counted once: ${money(a.repeatedCost)} of responses found again in later files (resumed or forked sessions) is not counted twice.`));
  if (a.derived > 0) lines.push(chalk.dim(`${a.derived} session${a.derived === 1 ? '' : 's'} made by cmv (trim, branch, compact): their copied responses are their originals' spend, counted there.`));
  lines.push('');
  lines.push(
    chalk.bold('Reduction of a trim') +
      `: mean ${formatPercent(a.reduction.mean)}, median ${formatPercent(a.reduction.median)}, min ${formatPercent(a.reduction.min)}, max ${formatPercent(a.reduction.max)}`,
  );
  lines.push('');
  lines.push(chalk.bold('Break-even') + chalk.dim(' (calls after the trim until it has paid for itself)'));
  lines.push(
    table(
      [
        ['', ...BUCKETS],
        ['warm resume', ...BUCKETS.map((b) => String(a.breakEven[b]))],
        ['cold resume', ...BUCKETS.map((b) => String(a.breakEvenCold[b]))],
      ],
      ['left', 'right', 'right', 'right', 'right', 'right'],
    ),
  );
  lines.push('');
  lines.push(chalk.bold('Tiers by tool-result share'));
  const tierLabel = { heavy: `heavy (>${HEAVY_TOOL_SHARE * 100}%)`, mixed: 'mixed', light: `light (<${LIGHT_TOOL_SHARE * 100}%)` };
  const tierRows = [['', 'sessions', 'mean reduction', 'median break-even', 'never']];
  for (const tier of ['heavy', 'mixed', 'light'] as const) {
    const t = a.tiers[tier];
    tierRows.push([tierLabel[tier], String(t.sessions), formatPercent(t.meanReduction), t.medianBreakEvenTurns === null ? '—' : `${plural(t.medianBreakEvenTurns, 'call')}`, String(t.never)]);
  }
  lines.push(table(tierRows, ['left', 'right', 'right', 'right', 'right']));
  if (a.projects.length) {
    lines.push('');
    lines.push(chalk.bold('Projects'));
    const rows = [['project', 'sessions', 'size', 'mean reduction', 'cost', 'saved over 50 calls']];
    for (const p of a.projects.slice(0, 10)) rows.push([p.project, String(p.sessions), formatBytes(p.bytes), formatPercent(p.meanReduction), money(p.cost), money(p.saving50)]);
    lines.push(table(rows, ['left', 'right', 'right', 'right', 'right', 'right']));
    if (a.projects.length > 10) lines.push(chalk.dim(`… and ${a.projects.length - 10} more (--json lists them all)`));
  }
  if (a.topSavings.length) {
    lines.push('');
    lines.push(chalk.bold('Where a trim pays most') + chalk.dim(' (saved over the next 50 calls, warm resume)'));
    const rows = a.topSavings.slice(0, 5).map((t) => [t.sessionId ?? t.path, `${formatReduction(t.reduction)}`, breakEvenLabel(t.breakEvenTurns), money(t.saving50)]);
    lines.push(table(rows, ['left', 'right', 'left', 'right']));
  }
  if (r.failed.length) {
    lines.push('');
    lines.push(chalk.yellow(`Failed (${r.failed.length}):`));
    for (const f of r.failed) lines.push(chalk.yellow(`  ${f.path}: ${f.error}`));
  }
  if (r.skipped.length) lines.push(chalk.dim(`${plural(r.skipped.length, 'file')} without a conversation skipped`));
  if (chartWidth !== undefined && a.sessions > 0) {
    lines.push('');
    lines.push(histogram('Reduction of a trim (sessions)', reductionBins(r.sessions.filter((x) => x.kind === 'main').map((x) => x.reduction)), { width: chartWidth }));
    lines.push('');
    const bins = BUCKETS.map((b) => ({ label: b, first: a.breakEven[b], second: a.breakEvenCold[b] }));
    lines.push(pairedHistogram('Break-even in calls (sessions)', ['warm resume', 'cold resume'], bins, { width: chartWidth }));
  }
  lines.push('');
  lines.push(chalk.dim(SUBSCRIPTION_NOTE));
  return lines.join('\n');
}
