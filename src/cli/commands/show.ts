// `cmv show <snapshot>`: everything stored about one snapshot: its meta, lineage and children.

import chalk from 'chalk';
import { openStore } from '../../store/store.js';
import { showSnapshot, type SnapshotDetail } from '../../store/history.js';
import type { Output } from '../output.js';
import { formatBytes, formatCount, plural } from '../format.js';
import { describeCommit, kindLabel } from './list.js';

export async function showCommand(name: string, out: Output): Promise<void> {
  const store = await openStore();
  const detail = await showSnapshot(store, name);
  out.render(detail, renderShow, (d) => ({
    id: d.id,
    names: d.names,
    parents: d.parents,
    meta: d.meta,
    lineage: d.lineage.map((e) => ({ id: e.id, names: e.names, kind: e.meta.kind })),
    children: d.children.map((e) => ({ id: e.id, names: e.names, kind: e.meta.kind })),
  }));
}

export function renderShow(d: SnapshotDetail): string {
  const m = d.meta;
  const f = m.facts;
  const lines = [`${chalk.bold(kindLabel(m))} ${chalk.cyan(d.names.join(', ') || m.name)} ${chalk.dim(d.id)}`, `taken      ${m.createdAt} by cmv ${m.cmvVersion}`];
  if (m.message) lines.push(`message    ${m.message}`);
  if (m.tags.length) lines.push(`tags       ${m.tags.join(', ')}`);
  lines.push(
    `session    ${m.source.sessionId ?? '?'}  ${chalk.dim(m.source.path)}`,
    `project    ${m.source.cwd ?? '?'}${m.project ? chalk.dim(` (${m.project.branch ?? 'detached'} @ ${m.project.head?.slice(0, 12) ?? 'no commit'}, ${m.project.dirty.length} uncommitted files)`) : ''}`,
    `claude     ${f.versions.join(', ') || '?'}; ${f.models.join(', ') || '?'}`,
    `log        ${plural(f.lines, 'line')}, ${formatBytes(f.bytes)}; ${plural(f.userPrompts, 'prompt')}, ${plural(f.assistantEntries, 'assistant line')}, ${plural(f.toolCalls, 'tool call')}, ${plural(f.compactions, 'compaction')}`,
    `tokens     ${formatCount(f.tokens.context)} in context at the last call; ${formatCount(f.tokens.apiCalls)} API calls, ${formatCount(f.tokens.output)} output tokens`,
    `files      ${f.files.read.length} read, ${f.files.changed.length} changed`,
  );
  if (m.branch) {
    const trim = m.branch.trim;
    lines.push(`branch of  ${m.branch.from.name ?? m.branch.from.id.slice(0, 12)}${m.branch.trimmed ? '' : ' (not trimmed)'} → ${m.branch.sessionPath}`);
    if (trim) {
      const removed = Object.entries(trim.removed)
        .filter(([, n]) => n > 0)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ');
      lines.push(`trim       ${formatCount(trim.tokensBefore)} → ${formatCount(trim.tokensAfter)} tokens, ${formatBytes(trim.bytesBefore)} → ${formatBytes(f.bytes)}; ${removed}`);
    }
  }
  if (m.redaction)
    lines.push(
      `redacted   copy of ${m.redaction.from.slice(0, 12)}: ${Object.entries(m.redaction.findings)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}`,
    );
  lines.push(chalk.bold('lineage'));
  lines.push(...(d.lineage.length ? d.lineage.map((e) => `  ${describeCommit(e.id, e.names, e.meta)}`) : [chalk.dim('  (none: the first snapshot of its session)')]));
  lines.push(chalk.bold('children'));
  lines.push(...(d.children.length ? d.children.map((e) => `  ${describeCommit(e.id, e.names, e.meta)}`) : [chalk.dim('  (none)')]));
  return lines.join('\n');
}
