// Renders lines, one terminal row each, cut to the width (never wrapped: a wrapped row would
// push the panes out of their frames).

import { memo } from 'react';
import { Box, Text } from 'ink';
import type { Line } from '../lines.js';

export interface LineViewProps {
  lines: Line[];
  width: number;
}

function cut(line: Line, width: number): Line['segments'] {
  const out: Line['segments'] = [];
  let room = width;
  for (const s of line.segments) {
    if (room <= 0) break;
    const text = s.text.length > room ? `${s.text.slice(0, Math.max(0, room - 1))}…` : s.text;
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
