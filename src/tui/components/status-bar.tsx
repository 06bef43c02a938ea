// The bottom row: the filter being typed, a question waiting for y/n, the last action's result,
// or the main keys.

import { memo } from 'react';
import { Text } from 'ink';
import type { Mode } from '../state.js';

export interface StatusBarProps {
  mode: Mode;
  filter: string;
  message?: { text: string; ok: boolean };
  busy?: string;
  width: number;
}

export const StatusBar = memo(function StatusBar({ mode, filter, message, busy, width }: StatusBarProps) {
  const cut = (text: string) => (text.length > width ? `${text.slice(0, width - 1)}…` : text);
  if (mode.kind === 'filter') return <Text wrap="truncate">{cut(`/${filter}▏  (Enter keeps it, Esc clears it)`)}</Text>;
  if (mode.kind === 'confirm') return <Text color="yellow" bold wrap="truncate">{cut(`${mode.question} [y/N]`)}</Text>;
  if (busy) return <Text color="cyan" wrap="truncate">{cut(`${busy}…`)}</Text>;
  if (message) return <Text color={message.ok ? 'green' : 'red'} wrap="truncate">{cut(message.text)}</Text>;
  const keys = `↑↓/jk move · Tab pane · Enter resume · s snapshot · t trim · b branch · d delete · / filter${filter ? ` [${filter}]` : ''} · ? help · q quit`;
  return <Text dimColor wrap="truncate">{cut(keys)}</Text>;
});
