// Token composition of a session as bars: by kind (user text, tool results, thinking, ...) and
// the tools whose results weigh most.

import type { SessionStats } from '../../analyze/session-stats.js';
import { barSegments, count, heading, line, pad, percent, type Line } from '../lines.js';

export interface TokenBarsProps {
  tokens: SessionStats['tokens'];
  width: number;
  /** Tools shown at most. */
  maxTools?: number;
}

const KIND_LABELS: Record<string, string> = {
  userText: 'user text',
  assistantText: 'assistant text',
  thinking: 'thinking',
  toolUseInput: 'tool inputs',
  toolResult: 'tool results',
  image: 'images',
};

function rows(prefix: string, entries: [string, number][], total: number, width: number, color: string): Line[] {
  const labelWidth = 14;
  const numbers = 16;
  const barWidth = Math.max(4, Math.min(30, width - labelWidth - numbers - 2));
  return entries.map(([label, n]) =>
    line(`${prefix}:${label}`, pad(label, labelWidth), ' ', ...barSegments(total ? n / total : 0, barWidth, color), ` ${count(n).padStart(9)} ${percent(total ? n / total : 0).padStart(5)}`),
  );
}

export function tokenBarsLines({ tokens, width, maxTools = 6 }: TokenBarsProps): Line[] {
  const kinds = Object.entries(tokens.byKind)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => [KIND_LABELS[k] ?? k, n] as [string, number]);
  const lines: Line[] = [heading('tok:h', `Tokens on resume: ${count(tokens.total)}`), ...rows('kind', kinds, tokens.total, width, 'cyan')];
  const tools = Object.entries(tokens.byTool)
    .sort((a, b) => b[1] - a[1])
    .slice(0, maxTools);
  if (tools.length) {
    const toolTotal = tools.reduce((t, [, n]) => t + n, 0) || 1;
    const allTools = Object.values(tokens.byTool).reduce((t, n) => t + n, 0) || toolTotal;
    lines.push(heading('tool:h', 'Tool results by tool'), ...rows('tool', tools, allTools, width, 'magenta'));
  }
  return lines;
}
