// The session's knowledge graph in a few lines: goal, what is in progress and open, decisions,
// files, open errors.

import type { GraphSummaryView } from '../data/graph-summary.js';
import type { Availability } from '../data/availability.js';
import { heading, line, type Line, plural } from '../lines.js';

export interface GraphSummaryProps {
  graph: Availability<GraphSummaryView>;
  width: number;
}

const SECTIONS: [keyof GraphSummaryView, string, string | undefined][] = [
  ['goal', 'Goal', 'yellow'],
  ['inProgress', 'Doing', 'cyan'],
  ['pending', 'Todo', undefined],
  ['errors', 'Open errors', 'red'],
  ['decisions', 'Decided', undefined],
  ['files', 'Files', undefined],
];

export function graphSummaryLines({ graph }: GraphSummaryProps): Line[] {
  const head = heading('graph:h', 'Graph summary');
  if (graph.state === 'loading') return [head, line('graph:l', { text: 'building the graph…', dim: true })];
  if (graph.state === 'unavailable') return [head, line('graph:u', { text: graph.reason, dim: true })];
  if (graph.state === 'error') return [head, line('graph:e', { text: graph.message, color: 'red' })];
  const g = graph.value;
  const lines: Line[] = [head];
  for (const [key, label, color] of SECTIONS) {
    const items = g[key] as string[];
    if (!items.length) continue;
    items.forEach((item, i) => lines.push(line(`graph:${key}:${i}`, { text: i === 0 ? `${label}: `.padEnd(13) : ' '.repeat(13), dim: true }, { text: item, color })));
  }
  if (lines.length === 1) lines.push(line('graph:empty', { text: `no goal, tasks or decisions found (${plural(g.nodes, 'node')})`, dim: true }));
  return lines;
}
