// The detail pane: for a session its facts, token composition, trim preview, break-even chart and
// graph summary; for a snapshot or a trim what it holds. Scrolls by row.

import { memo } from 'react';
import type { TreeRow } from '../tree-model.js';
import type { Availability } from '../data/availability.js';
import type { SessionDetail } from '../data/session-detail.js';
import type { BreakEvenView } from '../data/breakeven.js';
import type { GraphSummaryView } from '../data/graph-summary.js';
import { blank, bytes, count, line, type Line, plural } from '../lines.js';
import { tokenBarsLines } from './token-bars.js';
import { trimPreviewLines } from './trim-preview.js';
import { breakEvenLines } from './breakeven-chart.js';
import { graphSummaryLines } from './graph-summary.js';
import { LineView } from './line-view.js';
import { Pane } from './pane.js';

export interface DetailPaneProps {
  row?: TreeRow;
  detail: Availability<SessionDetail>;
  breakEven: Availability<BreakEvenView>;
  graph: Availability<GraphSummaryView>;
  scroll: number;
  focused: boolean;
  width: number;
  height: number;
}

function sessionLines(props: DetailPaneProps, inner: number): Line[] {
  const { detail } = props;
  if (detail.state === 'loading') return [line('d:l', { text: 'reading the log…', dim: true })];
  if (detail.state === 'unavailable') return [line('d:u', { text: detail.reason, dim: true })];
  if (detail.state === 'error') return [line('d:e', { text: detail.message, color: 'red' })];
  const s = detail.value.stats;
  const lines: Line[] = [
    line('d:id', { text: s.sessionId ?? s.path, bold: true }),
    line('d:cwd', { text: s.cwd ?? '?', dim: true }),
    line(
      'd:facts',
      `${plural(s.lines, 'line')}, ${bytes(s.bytes)} · ${count(s.messages.user)} user / ${count(s.messages.assistant)} assistant · ${plural(s.messages.toolUses, 'tool call')} · ${plural(s.compactions, 'compaction')}`,
    ),
    line('d:model', { text: `Claude Code ${s.versions.join(', ') || '?'} · ${s.models.join(', ') || 'no model'}`, dim: true }),
    blank('d:b1'),
    ...tokenBarsLines({ tokens: s.tokens, width: inner }),
    blank('d:b2'),
    ...trimPreviewLines({ preview: detail.value.trim, width: inner }),
    blank('d:b3'),
    ...breakEvenLines({ breakEven: props.breakEven, width: inner }),
    blank('d:b4'),
    ...graphSummaryLines({ graph: props.graph, width: inner }),
  ];
  return lines;
}

export function detailLines(props: DetailPaneProps): Line[] {
  const inner = props.width - 4;
  const row = props.row;
  if (!row) return [line('d:none', { text: 'select a session', dim: true })];
  if (row.kind === 'snapshot') {
    const n = row.snapshot;
    return [
      line('n:name', { text: `snapshot ${n.name}`, bold: true, color: 'yellow' }),
      line('n:of', `of session ${n.sessionId ?? '?'}`),
      ...(n.createdAt ? [line('n:at', { text: `taken ${n.createdAt}`, dim: true })] : []),
      ...(n.message ? [line('n:msg', n.message)] : []),
      ...(n.tags.length ? [line('n:tags', { text: `tags: ${n.tags.join(', ')}`, dim: true })] : []),
      blank('n:b'),
      line('n:keys', { text: 'Enter: branch it and resume · b: branch · d: delete', dim: true }),
    ];
  }
  if (row.kind === 'trim') {
    const t = row.trim;
    return [
      line('x:what', { text: `${t.by} trim, in place`, bold: true }),
      line('x:at', { text: t.at, dim: true }),
      line('x:bytes', `${bytes(t.bytesBefore)} → ${bytes(t.bytesAfter)}, ${count(t.tokensBefore)} → ${count(t.tokensAfter)} tokens`),
      ...(t.backup ? [line('x:backup', { text: `backup ${t.backup}`, dim: true }), line('x:undo', { text: `undo: cmv hook restore ${t.sessionId?.slice(0, 8) ?? t.path}`, dim: true })] : []),
      ...(t.snapshot ? [line('x:snap', `snapshot ${t.snapshot}`)] : []),
    ];
  }
  return sessionLines(props, inner);
}

export const DetailPane = memo(function DetailPane(props: DetailPaneProps) {
  const all = detailLines(props);
  const visible = Math.max(1, props.height - 3);
  const start = Math.max(0, Math.min(props.scroll, all.length - visible));
  const more = all.length - start - visible;
  const title = `Detail${start > 0 || more > 0 ? ` (${start + 1}-${Math.min(all.length, start + visible)} of ${all.length})` : ''}`;
  return (
    <Pane title={title} focused={props.focused} width={props.width} height={props.height}>
      <LineView lines={all.slice(start, start + visible)} width={props.width - 4} />
    </Pane>
  );
});
