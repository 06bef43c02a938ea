// A framed pane of a fixed size: the frame shows the title and, when focused, a brighter colour
// (and a marker, for terminals without colour).

import type { ReactNode } from 'react';
import { Box, Text } from 'ink';

export interface PaneProps {
  title: string;
  focused: boolean;
  width: number;
  height: number;
  children: ReactNode;
}

export function Pane({ title, focused, width, height, children }: PaneProps) {
  return (
    <Box flexDirection="column" width={width} height={height} borderStyle={focused ? 'bold' : 'round'} borderColor={focused ? 'cyan' : 'gray'} paddingX={1} overflow="hidden">
      <Text bold={focused} wrap="truncate">
        {focused ? '▸ ' : '  '}
        {title}
      </Text>
      {children}
    </Box>
  );
}

/** The first row to show so that `selected` stays in view. */
export function windowStart(selected: number, total: number, visible: number): number {
  if (total <= visible) return 0;
  return Math.max(0, Math.min(selected - Math.floor(visible / 2), total - visible));
}
