// `cmv list`: every snapshot and branch, oldest first. Also the one-line description of a
// snapshot that log, tree and show share.

import chalk from 'chalk';
import { openStore } from '../../store/store.js';
import { listSnapshots, type SnapshotListItem } from '../../store/list.js';
import type { SnapshotMeta } from '../../store/meta.js';
import type { Output } from '../output.js';
import { formatBytes, formatCount, relativeTime, table, plural } from '../format.js';

export interface ListCommandOptions {
  tag?: string;
  session?: string;
}

export async function listCommand(opts: ListCommandOptions, out: Output): Promise<void> {
  const store = await openStore();
  const problems: string[] = [];
  let items = await listSnapshots(store, problems);
  for (const problem of problems) out.warn(problem);
  if (opts.tag) items = items.filter((i) => i.tags.includes(opts.tag!));
  if (opts.session) items = items.filter((i) => i.sessionId?.startsWith(opts.session!) || i.branchSessionId?.startsWith(opts.session!));
  out.render(items, renderList);
}

/** What a snapshot is, in a few words: its kind, and for a branch where it came from. */
export function kindLabel(meta: SnapshotMeta): string {
  if (meta.kind === 'branch') return meta.branch?.trimmed ? 'trimmed branch' : 'branch';
  return meta.growth === 'rewrite' ? 'snapshot (rewritten)' : 'snapshot';
}

/** One line about a stored commit: names, kind, size, tokens, age, message. */
export function describeCommit(id: string, names: string[], meta: SnapshotMeta): string {
  const label = names.length ? chalk.cyan(names.join(', ')) : chalk.dim('(unnamed)');
  const figures = `${plural(meta.facts.lines, 'line')}, ${formatBytes(meta.facts.bytes)}, ${formatCount(meta.facts.tokens.context)} ctx tokens`;
  const tags = meta.tags.length ? chalk.yellow(` [${meta.tags.join(', ')}]`) : '';
  const message = meta.message ? ` — ${meta.message.split('\n')[0]}` : '';
  return `${chalk.dim(id.slice(0, 10))} ${label} ${chalk.dim(kindLabel(meta))} ${figures} ${chalk.dim(relativeTime(Date.parse(meta.createdAt)))}${tags}${message}`;
}

export function renderList(items: SnapshotListItem[]): string {
  if (items.length === 0) return chalk.dim('no snapshots yet: `cmv snapshot <session>` takes one');
  const rows = [[chalk.bold('name'), chalk.bold('kind'), chalk.bold('taken'), chalk.bold('session'), chalk.bold('lines'), chalk.bold('size'), chalk.bold('ctx tokens'), chalk.bold('tags / message')]];
  for (const i of items) {
    const kind = i.kind === 'branch' ? `branch of ${i.from ?? '?'}${i.trimmed ? ' (trimmed)' : ''}` : 'snapshot';
    const note = [i.tags.length ? chalk.yellow(i.tags.join(',')) : '', i.message ? chalk.dim(i.message.split('\n')[0]) : ''].filter(Boolean).join(' ');
    rows.push([
      chalk.cyan(i.name),
      kind,
      relativeTime(Date.parse(i.createdAt)),
      (i.kind === 'branch' ? i.branchSessionId : i.sessionId)?.slice(0, 8) ?? '-',
      formatCount(i.lines),
      formatBytes(i.bytes),
      formatCount(i.contextTokens),
      note,
    ]);
  }
  return `${table(rows, ['left', 'left', 'right', 'left', 'right', 'right', 'right', 'left'])}\n${chalk.dim(`${items.length} snapshot${items.length === 1 ? '' : 's'} and branches`)}`;
}
