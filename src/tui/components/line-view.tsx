// Renders lines, one terminal row each, cut to the width (never wrapped: a wrapped row would
// push the panes out of their frames). An empty line is drawn as a space: Ink gives an empty
// <Text> no row at all, so each blank line would move the rest up and the pane would show fewer
// rows than it counts. Line breaks and tabs in a text (a prompt, a decision from the log) become
// spaces, or the one line would take several rows.

import { memo } from 'react';
import { Box, Text } from 'ink';
import type { Line } from '../lines.js';

export interface LineViewProps {
  lines: Line[];
  width: number;
}

function cut(line: Line, width: number): Line['segments'] {
  if (line.segments.every((s) => s.text === '')) return [{ text: ' ' }];
  const out: Line['segments'] = [];
  let room = width;
  for (const s of line.segments) {
    if (room <= 0) break;
    const flat = s.text.replace(/[\r\n\t\v\f]/g, ' ');
    const text = flat.length > room ? `${flat.slice(0, Math.max(0, room - 1))}…` : flat;
    out.push({ ...s, text });
    room -= text.length;
  }
  return out;
}

export const LineView = memo(function LineView({ lines, width }: LineViewProps) {
  return (
    <Box flexDirection="column">
      {lines.map((l) => (
        <Text key={l.key} wrap="truncate">
          {cut(l, width).map((s, i) => (
            <Text key={i} color={s.color} bold={s.bold} dimColor={s.dim} inverse={s.inverse}>
              {s.text}
            </Text>
          ))}
        </Text>
      ))}
    </Box>
  );
});
