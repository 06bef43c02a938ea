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
import { RULES, ruleById } from '../../graph/rules/index.js';
import type { Output } from '../output.js';

export interface GraphCommandOptions {
  json?: boolean;
  dot?: boolean;
  mermaid?: boolean;
  /** Name the rule behind each node (with --json: each node's `rules` and the rule table). */
  explain?: boolean;
}

export async function graphCommand(target: string, opts: GraphCommandOptions, out: Output): Promise<void> {
  const formats = [opts.json, opts.dot, opts.mermaid].filter(Boolean).length;
  if (formats > 1) throw new CmvError('USAGE', 'choose one of --json, --dot and --mermaid', { hint: 'without any of them cmv prints a summary' });
  if (opts.explain && (opts.dot || opts.mermaid)) throw new CmvError('USAGE', '--explain goes with the summary or --json, not --dot or --mermaid', { hint: 'cmv graph <session> --explain' });
  const session = await openSession(await resolveSessionArg(target));
  assertSessionLog(session);
  const graph = buildGraph(session);
  if (opts.explain) return out.render(graph, renderExplained, explainedJson);
  out.render(graph, opts.dot ? graphToDot : opts.mermaid ? graphToMermaid : renderGraph);
}

/** Every node with the rules that made it, then those rules: what each matches, makes, and why. */
export function renderExplained(graph: SessionGraph): string {
  const lines: string[] = [`${chalk.bold(graph.sessionId ?? 'session')} · ${graph.nodes.length} nodes, each with the rules that made it`];
  const used = new Set<string>();
  for (const type of NODE_TYPES) {
    const nodes = graph.nodes.filter((n) => n.type === type);
    if (nodes.length === 0) continue;
    lines.push('', chalk.bold(`${type} (${nodes.length})`));
    for (const node of nodes) {
      const rules = node.rules ?? [];
      rules.forEach((r) => used.add(r));
      lines.push(`  ${nodeLine(node)}`, chalk.dim(`      by ${rules.length ? rules.join(', ') : '(no rule recorded)'}`));
    }
  }
  lines.push('', chalk.bold('Rules'));
  for (const id of [...used].sort()) {
    const rule = ruleById(id);
    lines.push(rule ? `  ${rule.id}: ${rule.matches} -> ${rule.makes}. ${chalk.dim(`Why: ${rule.why}`)}` : `  ${id}: ${STEP_RULES[id] ?? ''}`);
  }
  return lines.join('\n');
}

/** Ids of the steps that are no entry of the rule table but credit the nodes they touch. */
const STEP_RULES: Record<string, string> = {
  'session.project': "the project folder from the log's cwd and git branch",
  'prompt.turn-status': 'the end of a turn settles the status of what its prompt asked for (src/graph/prompt-facts.ts)',
};

function explainedJson(graph: SessionGraph): unknown {
  const used = new Set(graph.nodes.flatMap((n) => n.rules ?? []));
  return { ...graph, rules: RULES.filter((r) => used.has(r.id)).map((r) => ({ id: r.id, on: r.on, matches: r.matches, makes: r.makes, why: r.why, ...(r.client ? { client: r.client } : {}) })) };
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
