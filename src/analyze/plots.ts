// `cmv analyze --svg DIR`: charts of a batch, specified in Vega-Lite and rendered to SVG by Vega
// in Node (no browser, no canvas). Both libraries load only when plots are asked for.

import type { TopLevelSpec } from 'vega-lite';
import type { Aggregate } from './aggregate.js';
import { BUCKETS } from './aggregate.js';
import type { SessionSummary } from './session-summary.js';

export interface Plot {
  /** File name, e.g. `reduction.svg`. */
  file: string;
  title: string;
  svg: string;
}

const FONT = 'Helvetica, Arial, sans-serif';
const CONFIG = { font: FONT, view: { stroke: null }, axis: { labelFontSize: 11, titleFontSize: 12 }, title: { fontSize: 14, anchor: 'start' as const } };

function label(s: SessionSummary): string {
  const id = s.sessionId ?? s.path.split('/').slice(-1)[0];
  // The project's folder name; with its parent when that name alone says little (".worktrees/2").
  const parts = s.project ? s.project.split('/').filter(Boolean) : [];
  const project = parts.length === 0 ? undefined : parts[parts.length - 1].length < 4 ? parts.slice(-2).join('/') : parts[parts.length - 1];
  return `${project ? `${project} · ` : ''}${id.slice(0, 8)} (-${Math.round(s.reduction * 100)}%)`;
}

export function reductionSpec(sessions: SessionSummary[]): TopLevelSpec {
  const main = sessions.filter((s) => s.kind === 'main');
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: 'What a trim removes', subtitle: `${main.length} sessions: share of the context's tokens a trim removes` },
    width: 480,
    height: 240,
    data: { values: main.map((s) => ({ reduction: s.reduction * 100 })) },
    mark: { type: 'bar', color: '#4c78a8', binSpacing: 2 },
    encoding: {
      x: { field: 'reduction', type: 'quantitative', bin: { extent: [0, 100], step: 10 }, title: 'reduction (%)' },
      y: { aggregate: 'count', type: 'quantitative', title: 'sessions', axis: { tickMinStep: 1 } },
    },
    config: CONFIG,
  };
}

export function breakEvenSpec(a: Aggregate): TopLevelSpec {
  const values = BUCKETS.flatMap((bucket) => [
    { bucket, resume: 'warm resume', sessions: a.breakEven[bucket] },
    { bucket, resume: 'cold resume (after the TTL)', sessions: a.breakEvenCold[bucket] },
  ]);
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: 'When a trim pays for itself', subtitle: 'calls after the trim until the cache-miss penalty is recovered' },
    width: 480,
    height: 240,
    data: { values },
    mark: { type: 'bar' },
    encoding: {
      x: { field: 'bucket', type: 'ordinal', sort: BUCKETS, title: 'break-even (calls)', axis: { labelAngle: 0 } },
      xOffset: { field: 'resume', type: 'nominal', sort: ['warm resume', 'cold resume (after the TTL)'] },
      y: { field: 'sessions', type: 'quantitative', title: 'sessions', axis: { tickMinStep: 1 } },
      color: {
        field: 'resume',
        type: 'nominal',
        title: null,
        scale: { domain: ['warm resume', 'cold resume (after the TTL)'], range: ['#4c78a8', '#f58518'] },
        legend: { orient: 'top', labelLimit: 300 },
      },
    },
    config: CONFIG,
  };
}

export function costCurvesSpec(top: SessionSummary[]): TopLevelSpec {
  const values = top.flatMap((s) =>
    s.curve.flatMap((p) => [
      { session: label(s), turn: p.turn, branch: 'without trim', dollars: p.withoutTrim },
      { session: label(s), turn: p.turn, branch: 'with trim', dollars: p.withTrim },
    ]),
  );
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: 'Cost of the next calls, with and without a trim', subtitle: 'cumulative dollars after trimming now (warm resume), where a trim pays most' },
    data: { values },
    facet: { field: 'session', type: 'nominal', title: null, header: { labelFontSize: 12, labelFont: FONT } },
    columns: 2,
    spec: {
      width: 300,
      height: 180,
      mark: { type: 'line', strokeWidth: 2 },
      encoding: {
        x: { field: 'turn', type: 'quantitative', title: 'calls after the trim' },
        y: { field: 'dollars', type: 'quantitative', title: 'dollars', axis: { format: '$,.2f' } },
        color: { field: 'branch', type: 'nominal', title: null, scale: { domain: ['without trim', 'with trim'], range: ['#e45756', '#54a24b'] }, legend: { orient: 'top' } },
      },
    },
    resolve: { scale: { y: 'independent' } },
    config: CONFIG,
  };
}

async function render(spec: TopLevelSpec): Promise<string> {
  const [vega, vegaLite] = await Promise.all([import('vega'), import('vega-lite')]);
  const view = new vega.View(vega.parse(vegaLite.compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** The batch's plots as SVG documents (nothing written: the command writes them). */
export async function renderPlots(a: Aggregate, sessions: SessionSummary[], topCount = 6): Promise<Plot[]> {
  const bySaving = new Map(sessions.map((s) => [s.path, s]));
  const top = a.topSavings
    .map((t) => bySaving.get(t.path))
    .filter((s): s is SessionSummary => s !== undefined)
    .slice(0, topCount);
  const plots: Plot[] = [
    { file: 'reduction.svg', title: 'reduction histogram', svg: await render(reductionSpec(sessions)) },
    { file: 'break-even.svg', title: 'break-even distribution', svg: await render(breakEvenSpec(a)) },
  ];
  if (top.length > 0) plots.push({ file: 'cost-curves.svg', title: 'cost curves of the top sessions', svg: await render(costCurvesSpec(top)) });
  return plots;
}
