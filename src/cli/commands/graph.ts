// `cmv graph <session>`: the session's knowledge graph, as a summary, JSON, DOT or Mermaid.

import { plural } from '../../text/quantities.js';
import chalk from 'chalk';
import { openSession } from '../../session/session.js';
import { resolveSessionArg } from '../../session/locate.js';
import { assertSessionLog } from '../../session/session-check.js';
import { buildGraph } from '../../graph/build-graph.js';
import { graphToDot, graphToMermaid } from '../../graph/render-graph.js';
import { NODE_TYPES, type GraphNode, type SessionGraph } from '../../graph/model.js';
import { CmvError } from '../../errors.js';
import type { Output } from '../output.js';

export interface GraphCommandOptions {
  json?: boolean;
  dot?: boolean;
  mermaid?: boolean;
}

export async function graphCommand(target: string, opts: GraphCommandOptions, out: Output): Promise<void> {
  const formats = [opts.json, opts.dot, opts.mermaid].filter(Boolean).length;
  if (formats > 1) throw new CmvError('USAGE', 'choose one of --json, --dot and --mermaid', { hint: 'without any of them cmv prints a summary' });
  const session = await openSession(await resolveSessionArg(target));
  assertSessionLog(session);
  const graph = buildGraph(session);
  out.render(graph, opts.dot ? graphToDot : opts.mermaid ? graphToMermaid : renderGraph);
}

const MARK: Record<string, string> = { completed: '✓', in_progress: '…', pending: '○', failed: '✗', modified: '±' };
const SHOWN_PER_TYPE = 12;

export function renderGraph(graph: SessionGraph): string {
  const lines: string[] = [];
  lines.push(`${chalk.bold(graph.sessionId ?? 'session')} · ${plural(graph.turns, 'turn')} · ${plural(graph.nodes.length, 'node')}, ${plural(graph.edges.length, 'edge')}`);
  for (const type of NODE_TYPES) {
    const nodes = graph.nodes.filter((n) => n.type === type).sort((a, b) => b.importance - a.importance || a.firstTurn - b.firstTurn);
    if (nodes.length === 0) continue;
    lines.push('');
    lines.push(chalk.bold(`${type} (${nodes.length})`));
    for (const node of nodes.slice(0, SHOWN_PER_TYPE)) lines.push(`  ${nodeLine(node)}`);
    if (nodes.length > SHOWN_PER_TYPE) lines.push(chalk.dim(`  … ${nodes.length - SHOWN_PER_TYPE} more (--json lists all)`));
  }
  return lines.join('\n');
}

function nodeLine(node: GraphNode): string {
  const mark = node.status ? `${MARK[node.status] ?? ' '} ` : '  ';
  const detail = node.detail ? chalk.dim(` — ${node.detail}`) : '';
  return `${mark}${node.label}${detail}${chalk.dim(`  (turn ${node.firstTurn === node.lastTurn ? node.firstTurn : `${node.firstTurn}-${node.lastTurn}`}, ${node.importance})`)}`;
}
