// What a trim of the session would remove, in the words `cmv trim --dry-run` uses.

import type { TrimPreviewView } from '../data/session-detail.js';
import type { Availability } from '../data/availability.js';
import { bytes, count, heading, line, pad, reduction, type Line } from '../lines.js';
import { ruleLabel } from '../../trim/rule-labels.js';

export interface TrimPreviewProps {
  preview: Availability<TrimPreviewView>;
  width: number;
}

export function trimPreviewLines({ preview, width }: TrimPreviewProps): Line[] {
  const head = heading('trim:h', 'Trim preview (t trims into a new session)');
  if (preview.state === 'loading') return [head, line('trim:l', { text: 'trimming in memory…', dim: true })];
  if (preview.state === 'unavailable') return [head, line('trim:u', { text: preview.reason, dim: true })];
  if (preview.state === 'error') return [head, line('trim:e', { text: preview.message, color: 'red' })];
  const p = preview.value;
  const lines: Line[] = [
    head,
    line(
      'trim:sum',
      `${count(p.tokensBefore)} → ${count(p.tokensAfter)} tokens `,
      { text: reduction(p.reduction.tokens), color: 'green', bold: true },
      `, ${bytes(p.bytesBefore)} → ${bytes(p.bytesAfter)} `,
      p.verified ? { text: 'verified', color: 'green' } : { text: 'NOT verified', color: 'red' },
    ),
  ];
  const labelWidth = Math.max(10, Math.min(44, width - 10));
  for (const [rule, n] of p.removed) lines.push(line(`trim:${rule}`, '  ', pad(ruleLabel(rule), labelWidth), count(n).padStart(7)));
  if (p.removed.length === 0) lines.push(line('trim:none', { text: '  nothing to remove: the log is already trimmed', dim: true }));
  return lines;
}
