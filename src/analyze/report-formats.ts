// `cmv analyze --csv` and `--md`: the per-session table as CSV (one row per file), and the whole
// report as Markdown for pasting into an issue or a notebook.

import type { Aggregate } from './aggregate.js';
import { BUCKETS } from './aggregate.js';
import type { BatchFailure } from './batch-protocol.js';
import type { SessionSummary } from './session-summary.js';

const CSV_COLUMNS: [string, (s: SessionSummary) => unknown][] = [
  ['path', (s) => s.path],
  ['sessionId', (s) => s.sessionId],
  ['kind', (s) => s.kind],
  ['project', (s) => s.project],
  ['model', (s) => s.model],
  ['bytes', (s) => s.bytes],
  ['tokens', (s) => s.tokens],
  ['tokensAfter', (s) => s.tokensAfter],
  ['reduction', (s) => s.reduction],
  ['toolResultShare', (s) => s.toolResultShare],
  ['tier', (s) => s.tier],
  ['source', (s) => s.source],
  ['calls', (s) => s.calls],
  ['cost', (s) => s.cost],
  ['ttlRewrites', (s) => s.ttlRewrites],
  ['penalty', (s) => s.penalty],
  ['savingPerTurn', (s) => s.savingPerTurn],
  ['breakEvenTurns', (s) => s.breakEvenTurns],
  ['coldBreakEvenTurns', (s) => s.coldBreakEvenTurns],
  ['saving50', (s) => s.saving50],
  ['firstTimestamp', (s) => s.firstTimestamp],
  ['lastTimestamp', (s) => s.lastTimestamp],
];

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** RFC 4180 CSV; failed files are rows with an `error` and nothing else. */
export function toCsv(sessions: SessionSummary[], failed: BatchFailure[]): string {
  const header = [...CSV_COLUMNS.map(([name]) => name), 'error'];
  const rows = sessions.map((s) => [...CSV_COLUMNS.map(([, get]) => csvCell(get(s))), '']);
  for (const f of failed) rows.push([csvCell(f.path), ...CSV_COLUMNS.slice(1).map(() => ''), csvCell(f.error)]);
  return [header.join(','), ...rows.map((r) => r.join(','))].join('\r\n') + '\r\n';
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const usd = (x: number) => `${x < 0 && x.toFixed(2) !== '-0.00' ? '-' : ''}$${Math.abs(x).toFixed(2)}`;
const mdCell = (text: string) => text.replace(/\|/g, '\\|');

export function toMarkdown(a: Aggregate, sessions: SessionSummary[], failed: BatchFailure[]): string {
  const out: string[] = [];
  out.push('# cmv analyze', '');
  out.push(
    `${a.files} files (${a.sessions} sessions, ${a.subagents} subagent transcripts), ${(a.bytes / 1024 / 1024).toFixed(1)} MB, ` +
      `${a.tokens.toLocaleString('en-US')} tokens of context; the logged calls cost ${usd(a.cost)} at list prices.`,
    '',
  );
  out.push('## Reduction of a trim', '', '| mean | median | min | max |', '|---:|---:|---:|---:|');
  out.push(`| ${pct(a.reduction.mean)} | ${pct(a.reduction.median)} | ${pct(a.reduction.min)} | ${pct(a.reduction.max)} |`, '');
  out.push('## Break-even (calls after the trim)', '', '| resume | ' + BUCKETS.join(' | ') + ' |', '|---|' + BUCKETS.map(() => '---:').join('|') + '|');
  out.push(`| warm | ${BUCKETS.map((b) => a.breakEven[b]).join(' | ')} |`);
  out.push(`| cold | ${BUCKETS.map((b) => a.breakEvenCold[b]).join(' | ')} |`, '');
  out.push('## Tiers by tool-result share', '', '| tier | sessions | mean reduction | median break-even | never |', '|---|---:|---:|---:|---:|');
  for (const tier of ['heavy', 'mixed', 'light'] as const) {
    const t = a.tiers[tier];
    out.push(`| ${tier} | ${t.sessions} | ${pct(t.meanReduction)} | ${t.medianBreakEvenTurns ?? '—'} | ${t.never} |`);
  }
  out.push('', '## Projects', '', '| project | sessions | MB | mean reduction | cost | saved over 50 calls |', '|---|---:|---:|---:|---:|---:|');
  for (const p of a.projects) {
    out.push(`| ${mdCell(p.project)} | ${p.sessions} | ${(p.bytes / 1024 / 1024).toFixed(1)} | ${pct(p.meanReduction)} | ${usd(p.cost)} | ${usd(p.saving50)} |`);
  }
  out.push('', '## Where a trim pays most', '', '| session | reduction | break-even | saved over 50 calls |', '|---|---:|---:|---:|');
  for (const t of a.topSavings) out.push(`| ${mdCell(t.sessionId ?? t.path)} | ${pct(t.reduction)} | ${t.breakEvenTurns ?? 'never'} | ${usd(t.saving50)} |`);
  out.push('', '## Sessions', '', '| file | kind | model | MB | tokens | reduction | break-even warm / cold | cost |', '|---|---|---|---:|---:|---:|---:|---:|');
  for (const s of sessions) {
    const name = s.path.split('/').slice(-1)[0];
    out.push(
      `| ${mdCell(name)} | ${s.kind} | ${s.model} | ${(s.bytes / 1024 / 1024).toFixed(2)} | ${s.tokens.toLocaleString('en-US')} | ${pct(s.reduction)} | ${s.breakEvenTurns ?? 'never'} / ${s.coldBreakEvenTurns ?? 'never'} | ${usd(s.cost)} |`,
    );
  }
  if (failed.length) {
    out.push('', '## Failed', '');
    for (const f of failed) out.push(`- \`${f.path}\`: ${f.error}`);
  }
  return out.join('\n') + '\n';
}
