// The sessions of the selected project as a tree: sessions (● while being written), under them
// their snapshots (◆), in-place trims (✂) and the sessions trimmed from them.

import { memo } from 'react';
import type { TreeRow } from '../tree-model.js';
import { ago, bytes, line, pad, reduction, type Line, type Segment } from '../lines.js';
import { LineView } from './line-view.js';
import { Pane, windowStart } from './pane.js';

export interface SessionTreeProps {
  title: string;
  rows: TreeRow[];
  selected: number;
  focused: boolean;
  width: number;
  height: number;
  now: number;
  /** Why snapshots are not shown, when they are not. */
  snapshotsNote?: string;
}

function rowSegments(row: TreeRow, width: number, now: number): Segment[] {
  const indent = '  '.repeat(row.depth);
  if (row.kind === 'session') {
    const s = row.session;
    const right = ` ${bytes(s.bytes).padStart(7)} ${ago(s.modifiedMs, now).padStart(4)}`;
    const label = `${indent}${s.live ? '●' : '○'} ${s.id.slice(0, 8)} ${s.firstPrompt ?? ''}`;
    return [
      { text: pad(label, Math.max(8, width - right.length)), color: s.live ? 'green' : undefined },
      { text: right, dim: true },
    ];
  }
  if (row.kind === 'snapshot') {
    const n = row.snapshot;
    const label = `${indent}◆ ${n.name}${n.message ? ` — ${n.message}` : ''}`;
    return [{ text: pad(label, width), color: 'yellow' }];
  }
  const t = row.trim;
  const saved = reduction(t.tokensBefore ? 1 - t.tokensAfter / t.tokensBefore : 0);
  return [{ text: pad(`${indent}✂ ${t.by} trim ${saved} ${bytes(t.bytesBefore)}→${bytes(t.bytesAfter)} ${ago(Date.parse(t.at), now)} ago`, width), dim: true }];
}

export function treeLines({ rows, selected, width, height, now, snapshotsNote }: SessionTreeProps): Line[] {
  const inner = width - 4;
  const visible = Math.max(1, height - 3 - (snapshotsNote ? 1 : 0));
  const start = windowStart(selected, rows.length, visible);
  const lines: Line[] = rows.slice(start, start + visible).map((row, i) => {
    const index = start + i;
    const selectedRow = index === selected;
    const segments = rowSegments(row, inner - 1, now).map((s) => (selectedRow ? { ...s, inverse: true } : s));
    return line(row.key, { text: selectedRow ? '›' : ' ', bold: true }, ...segments);
  });
  if (rows.length === 0) lines.push(line('t:none', { text: 'no sessions match', dim: true }));
  if (snapshotsNote) lines.push(line('t:note', { text: snapshotsNote, dim: true }));
  return lines;
}

export const SessionTree = memo(function SessionTree(props: SessionTreeProps) {
  return (
    <Pane title={props.title} focused={props.focused} width={props.width} height={props.height}>
      <LineView lines={treeLines(props)} width={props.width - 4} />
    </Pane>
  );
});
