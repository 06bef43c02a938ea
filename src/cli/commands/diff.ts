// `cmv diff <a> <b>`: messages added, removed and rewritten between two snapshots, the token
// delta, the files the later one newly touched, and the session graph's diff.

import chalk from 'chalk';
import { openStore } from '../../store/store.js';
import { diffSnapshots, type MessageSummary, type SnapshotDiff } from '../../store/diff.js';
import type { Output } from '../output.js';
import { formatBytes, formatCount, plural } from '../format.js';
import { graphDiffLines } from '../../graph/diff-graphs.js';

const SHOWN = 15;

export async function diffCommand(a: string, b: string, out: Output): Promise<void> {
  const store = await openStore();
  out.render(await diffSnapshots(store, a, b), renderDiff);
}

function signed(n: number): string {
  return `${n >= 0 ? '+' : ''}${formatCount(n)}`;
}

function messageLines(sign: string, colour: (s: string) => string, list: MessageSummary[]): string[] {
  const lines = list.slice(0, SHOWN).map((m) => colour(`  ${sign} ${m.role.padEnd(9)} ${m.text}`));
  if (list.length > SHOWN) lines.push(chalk.dim(`  … ${list.length - SHOWN} more (--json lists all)`));
  return lines;
}

export function renderDiff(d: SnapshotDiff): string {
  const m = d.messages;
  const lines = [
    `${chalk.bold('diff')} ${chalk.cyan(d.a.name)} → ${chalk.cyan(d.b.name)}`,
    `  lines ${formatCount(d.lines.a)} → ${formatCount(d.lines.b)}, size ${formatBytes(d.bytes.a)} → ${formatBytes(d.bytes.b)}`,
    `  tokens on resume ${formatCount(d.tokens.a)} → ${formatCount(d.tokens.b)} (${signed(d.tokens.delta)}); context at the last call ${formatCount(d.contextTokens.a)} → ${formatCount(d.contextTokens.b)} (${signed(d.contextTokens.delta)})`,
    `  messages: ${chalk.green(`+${m.added.length} added`)}, ${chalk.red(`-${m.removed.length} removed`)}, ${chalk.yellow(`~${m.changed.length} rewritten`)}, ${m.unchanged} unchanged`,
  ];
  lines.push(...messageLines('+', chalk.green, m.added), ...messageLines('-', chalk.red, m.removed), ...messageLines('~', chalk.yellow, m.changed));
  if (d.files.newlyRead.length || d.files.newlyChanged.length) {
    lines.push(chalk.bold('  files newly touched'));
    for (const f of d.files.newlyChanged) lines.push(`    changed ${f}`);
    for (const f of d.files.newlyRead) lines.push(`    read    ${f}`);
  }
  lines.push(...graphLines(d));
  return lines.join('\n');
}

const GRAPH_COLOUR: Record<string, (s: string) => string> = { '+': chalk.green, '-': chalk.red, '~': chalk.yellow };

function graphLines(d: SnapshotDiff): string[] {
  const g = d.graph;
  const rebuilt = [g.source.a === 'rebuilt' ? d.a.name : undefined, g.source.b === 'rebuilt' ? d.b.name : undefined].filter(Boolean);
  const note = rebuilt.length ? chalk.dim(` (graph of ${rebuilt.join(' and ')} rebuilt from the log)`) : '';
  if (g.same) return [`  graph: unchanged${note}`];
  const counts = `${chalk.green(`+${plural(g.added.length, 'node')}`)}, ${chalk.red(`-${g.removed.length} removed`)}, ${chalk.yellow(`~${g.statusChanged.length} status changed`)}`;
  const body = graphDiffLines(g);
  const shown = body.slice(0, SHOWN).map((line) => `    ${(GRAPH_COLOUR[line[0]] ?? String)(line)}`);
  if (body.length > SHOWN) shown.push(chalk.dim(`    … ${body.length - SHOWN} more (--json lists all)`));
  return [`  ${chalk.bold('graph')}: ${counts}${note}`, ...shown];
}
