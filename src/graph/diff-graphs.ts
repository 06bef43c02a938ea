// The difference between two graphs of a session (two snapshots, or a snapshot and the live
// log): nodes added and removed, statuses changed, labels changed, edges added and removed. Node
// ids are deterministic, so the same fact has the same id in both; a fact whose id differs but
// whose label names the same thing is matched by label.

import { sameThing } from './labels.js';
import type { GraphEdge, GraphNode, NodeStatus, NodeType, SessionGraph } from './model.js';

export interface NodeRef {
  id: string;
  type: NodeType;
  label: string;
}

export interface StatusChange extends NodeRef {
  from: NodeStatus | null;
  to: NodeStatus | null;
}

export interface LabelChange extends NodeRef {
  /** The label in the first graph; `label` is the second's. */
  was: string;
}

export interface GraphDiff {
  added: NodeRef[];
  removed: NodeRef[];
  statusChanged: StatusChange[];
  relabelled: LabelChange[];
  edgesAdded: GraphEdge[];
  edgesRemoved: GraphEdge[];
  /** True when nothing differs. */
  same: boolean;
}

const ref = (n: GraphNode): NodeRef => ({ id: n.id, type: n.type, label: n.label });

export function diffGraphs(a: SessionGraph, b: SessionGraph): GraphDiff {
  const inA = new Map(a.nodes.map((n) => [n.id, n]));
  const inB = new Map(b.nodes.map((n) => [n.id, n]));
  // Pair nodes: by id first, then by type and label for what is left.
  const pairOfB = new Map<string, GraphNode>();
  for (const node of b.nodes) {
    const twin = inA.get(node.id);
    if (twin) pairOfB.set(node.id, twin);
  }
  const unpairedA = a.nodes.filter((n) => !inB.has(n.id));
  for (const node of b.nodes) {
    if (pairOfB.has(node.id)) continue;
    const i = unpairedA.findIndex((n) => n.type === node.type && sameThing(n.label, node.label));
    if (i >= 0) pairOfB.set(node.id, unpairedA.splice(i, 1)[0]);
  }
  const pairedA = new Set([...pairOfB.values()].map((n) => n.id));
  const added = b.nodes.filter((n) => !pairOfB.has(n.id)).map(ref);
  const removed = a.nodes.filter((n) => !pairedA.has(n.id)).map(ref);
  const statusChanged: StatusChange[] = [];
  const relabelled: LabelChange[] = [];
  for (const node of b.nodes) {
    const twin = pairOfB.get(node.id);
    if (!twin) continue;
    if (twin.status !== node.status) statusChanged.push({ ...ref(node), from: twin.status, to: node.status });
    if (twin.label !== node.label) relabelled.push({ ...ref(node), was: twin.label });
  }
  // Edges compare in B's ids: an edge of A is translated through the pairing.
  const aToB = new Map([...pairOfB].map(([bId, aNode]) => [aNode.id, bId]));
  const key = (e: GraphEdge) => `${e.from}\u0000${e.to}\u0000${e.type}`;
  const edgesA = new Map(a.edges.map((e) => [key({ ...e, from: aToB.get(e.from) ?? e.from, to: aToB.get(e.to) ?? e.to }), e]));
  const edgesB = new Map(b.edges.map((e) => [key(e), e]));
  const edgesAdded = [...edgesB].filter(([k]) => !edgesA.has(k)).map(([, e]) => e);
  const edgesRemoved = [...edgesA].filter(([k]) => !edgesB.has(k)).map(([, e]) => e);
  const same = added.length + removed.length + statusChanged.length + relabelled.length + edgesAdded.length + edgesRemoved.length === 0;
  return { added, removed, statusChanged, relabelled, edgesAdded, edgesRemoved, same };
}

/** The diff as plain lines ("+ TASK Add rate limiting", "~ TASK ... pending -> completed"), for any renderer. */
export function graphDiffLines(diff: GraphDiff): string[] {
  const lines: string[] = [];
  for (const n of diff.added) lines.push(`+ ${n.type} ${n.label}`);
  for (const n of diff.removed) lines.push(`- ${n.type} ${n.label}`);
  for (const n of diff.statusChanged) lines.push(`~ ${n.type} ${n.label}: ${n.from ?? 'none'} -> ${n.to ?? 'none'}`);
  for (const n of diff.relabelled) lines.push(`~ ${n.type} "${n.was}" is now "${n.label}"`);
  if (diff.edgesAdded.length || diff.edgesRemoved.length) lines.push(`edges: +${diff.edgesAdded.length} -${diff.edgesRemoved.length}`);
  return lines;
}
