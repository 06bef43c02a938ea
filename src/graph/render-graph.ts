// A session graph as text for other tools: Graphviz DOT and Mermaid flowcharts. Node order and
// edge order come from the graph, so the output is as deterministic as the graph itself.

import type { GraphNode, SessionGraph } from './model.js';

const MAX_LABEL = 60;

function shortLabel(node: GraphNode): string {
  const label = node.label.length > MAX_LABEL ? `${node.label.slice(0, MAX_LABEL - 1)}…` : node.label;
  return `${node.type}: ${label}${node.status ? ` (${node.status})` : ''}`;
}

const FILL: Record<string, string> = {
  GOAL: '#ffe599',
  TASK: '#cfe2f3',
  DECISION: '#d9ead3',
  FILE: '#eeeeee',
  ERROR: '#f4cccc',
  TEST: '#d0e0e3',
  AGENT: '#ead1dc',
};

function dotString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

export function graphToDot(graph: SessionGraph): string {
  const lines = [`digraph ${dotString(graph.sessionId ?? 'session')} {`, '  rankdir=LR;', '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=10];'];
  for (const node of graph.nodes) {
    const style = node.status === 'completed' ? ', penwidth=2' : node.status === 'failed' ? ', color="#cc0000"' : '';
    lines.push(`  ${dotString(node.id)} [label=${dotString(shortLabel(node))}, fillcolor=${dotString(FILL[node.type] ?? '#ffffff')}${style}];`);
  }
  for (const edge of graph.edges) lines.push(`  ${dotString(edge.from)} -> ${dotString(edge.to)} [label=${dotString(edge.type)}, fontsize=8];`);
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

function mermaidString(text: string): string {
  return `"${text
    .replace(/"/g, '#quot;')
    .replace(/[<>]/g, (c) => (c === '<' ? '#lt;' : '#gt;'))
    .replace(/\n/g, ' ')}"`;
}

export function graphToMermaid(graph: SessionGraph): string {
  const ids = new Map(graph.nodes.map((n, i) => [n.id, `n${i}`]));
  const lines = ['flowchart LR'];
  for (const node of graph.nodes) lines.push(`  ${ids.get(node.id)}[${mermaidString(shortLabel(node))}]`);
  for (const edge of graph.edges) {
    const from = ids.get(edge.from);
    const to = ids.get(edge.to);
    if (from && to) lines.push(`  ${from} -->|${edge.type}| ${to}`);
  }
  return `${lines.join('\n')}\n`;
}
