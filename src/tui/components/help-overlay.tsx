// The key help (?), drawn in place of the panes.

import { Box, Text } from 'ink';
import { KEY_HELP } from '../keymap.js';

export interface HelpOverlayProps {
  width: number;
  height: number;
}

export function HelpOverlay({ width, height }: HelpOverlayProps) {
  return (
    <Box flexDirection="column" width={width} height={height} borderStyle="round" paddingX={2}>
      <Text bold>cmv dashboard — keys</Text>
      <Text> </Text>
      {KEY_HELP.map(([keys, what]) => (
        <Text key={keys} wrap="truncate">
          <Text bold>{keys.padEnd(16)}</Text>
          {what}
        </Text>
      ))}
      <Text> </Text>
      <Text dimColor>Live sessions (●) are re-read as they grow. Any key closes this help.</Text>
    </Box>
  );
}
