// The bottom rows: the filter being typed, a question waiting for y/n, the last action's result,
// or the main keys. A result is shown whole: its text and each warning wrapped onto further rows,
// and the command it suggests on rows of its own, never cut (the dashboard makes room above).

import { memo } from 'react';
import { Box, Text } from 'ink';
import type { Mode, StatusMessage } from '../state.js';
import { clip } from '../lines.js';

export interface StatusBarProps {
  mode: Mode;
  filter: string;
  message?: StatusMessage;
  busy?: string;
  width: number;
}

export interface StatusRow {
  text: string;
  color?: string;
  bold?: boolean;
  dim?: boolean;
}

/** Words onto rows of at most `width` columns; a word longer than a row is split across rows. */
export function wrapWords(text: string, width: number): string[] {
  const room = Math.max(1, width);
  const rows: string[] = [];
  let row = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (row && row.length + 1 + word.length <= room) {
      row += ` ${word}`;
      continue;
    }
    if (row) rows.push(row);
    row = word;
    while (row.length > room) {
      rows.push(row.slice(0, room));
      row = row.slice(room);
    }
  }
  if (row || rows.length === 0) rows.push(row);
  return rows;
}

/** A command on one row when it fits beside its label, else alone on its rows, split only where a row ends. */
function commandRows(command: string, width: number): string[] {
  const room = Math.max(1, width);
  if (`resume: ${command}`.length <= room) return [`resume: ${command}`];
  const rows = [clip('resume (printed again when you quit):', room)];
  for (let at = 0; at < command.length; at += room) rows.push(command.slice(at, at + room));
  return rows;
}

/** The status rows for a width, most a few: the layout gives the panes what is left. */
export function statusRows({ mode, filter, message, busy, width }: StatusBarProps): StatusRow[] {
  if (mode.kind === 'filter') return [{ text: clip(`/${filter}▏  (Enter keeps it, Esc clears it)`, width) }];
  if (mode.kind === 'confirm') return wrapWords(`${mode.question} [y/N]`, width).map((text) => ({ text, color: 'yellow', bold: true }));
  if (busy) return wrapWords(`${busy}…`, width).map((text) => ({ text, color: 'cyan' }));
  if (message) {
    return [
      ...wrapWords(message.text, width).map((text) => ({ text, color: message.ok ? 'green' : 'red' })),
      ...(message.command ? commandRows(message.command, width).map((text) => ({ text, bold: true })) : []),
      ...(message.warnings ?? []).flatMap((w) => wrapWords(`warning: ${w}`, width).map((text) => ({ text, color: 'yellow' }))),
    ];
  }
  const keys = `↑↓/jk move · Tab pane · Enter resume · s snapshot · t trim · b branch · d delete · / filter${filter ? ` [${filter}]` : ''} · ? help · q quit`;
  return [{ text: clip(keys, width), dim: true }];
}

export const StatusBar = memo(function StatusBar({ rows }: { rows: StatusRow[] }) {
  return (
    <Box flexDirection="column">
      {rows.map((r, i) => (
        <Text key={i} wrap="truncate" color={r.color} bold={r.bold} dimColor={r.dim}>
          {r.text || ' '}
        </Text>
      ))}
    </Box>
  );
});
