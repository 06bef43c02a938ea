// Accumulates nodes and edges while the extractors walk a session: one node per (type, label
// key), statuses that only move forward, evidence and turns merged. `finish` fixes ids, order and
// importance, so the same log always gives the same bytes.

import { createHash } from 'node:crypto';
import { labelKey, normaliseLabel, sameThing } from './labels.js';
import { movesForward, type EdgeType, type GraphEdge, type GraphNode, type NodeStatus, type NodeType, type SessionGraph } from './model.js';
import { importanceOf } from './importance.js';

export interface Mention {
  status?: NodeStatus;
  confidence: number;
  turn: number;
  /** The line the mention came from. */
  uuid?: string;
  detail?: string;
  /** Replace the detail even when the node has one (the latest test counts, say). */
  replaceDetail?: boolean;
  /** Merge into an existing node of the type whose label names the same thing (default true). */
  fuzzy?: boolean;
  /** The id of the rule that made the mention (default: the builder's active rule). */
  rule?: string;
}

export interface DraftNode {
  key: string;
  type: NodeType;
  label: string;
  status: NodeStatus | null;
  confidence: number;
  firstTurn: number;
  lastTurn: number;
  /** Turns of every mention, for importance. */
  mentions: number[];
  evidence: string[];
  detail?: string;
  /** Order of creation: the tie-breaker that keeps output stable. */
  seq: number;
  /** Ids of the rules that made or confirmed the node, first first. */
  rules: string[];
}

export class GraphBuilder {
  private readonly nodes = new Map<string, DraftNode>();
  /** Every label key a node was mentioned under, for lookup. */
  private readonly aliases = new Map<string, DraftNode>();
  private readonly byType = new Map<NodeType, DraftNode[]>();
  private readonly edges = new Map<string, { from: DraftNode; to: DraftNode; type: EdgeType }>();
  private seq = 0;
  /** The rule the engine is running: mentions without their own rule id are credited to it. */
  activeRule: string | undefined;

  /** Adds a mention of a node, creating it on first sight. Returns undefined for an empty label. */
  mention(type: NodeType, rawLabel: string, m: Mention): DraftNode | undefined {
    const label = normaliseLabel(rawLabel);
    if (label === '') return undefined;
    const key = `${type}\u0000${labelKey(label)}`;
    let node = this.aliases.get(key);
    if (!node && m.fuzzy !== false) node = (this.byType.get(type) ?? []).find((n) => sameThing(n.label, label));
    if (!node) {
      node = { key, type, label, status: null, confidence: m.confidence, firstTurn: m.turn, lastTurn: m.turn, mentions: [], evidence: [], seq: this.seq++, rules: [] };
      this.nodes.set(key, node);
      this.aliases.set(key, node);
      const list = this.byType.get(type);
      if (list) list.push(node);
      else this.byType.set(type, [node]);
    } else if (label.length < node.label.length && labelKey(label) !== labelKey(node.label) && m.confidence >= node.confidence) {
      // Of two labels for one thing keep the shorter: it costs fewer tokens and says the same.
      node.label = label;
    }
    this.aliases.set(key, node);
    node.confidence = Math.max(node.confidence, m.confidence);
    node.firstTurn = Math.min(node.firstTurn, m.turn);
    node.lastTurn = Math.max(node.lastTurn, m.turn);
    node.mentions.push(m.turn);
    const rule = m.rule ?? this.activeRule;
    if (rule && !node.rules.includes(rule)) node.rules.push(rule);
    if (m.uuid && !node.evidence.includes(m.uuid)) node.evidence.push(m.uuid);
    if (m.status && movesForward(node.status, m.status)) node.status = m.status;
    if (m.detail && (m.replaceDetail || !node.detail)) node.detail = m.detail;
    return node;
  }

  /** Moves a node's status forward (never back). */
  advance(node: DraftNode, status: NodeStatus, turn: number, uuid?: string): void {
    if (movesForward(node.status, status)) node.status = status;
    if (this.activeRule && !node.rules.includes(this.activeRule)) node.rules.push(this.activeRule);
    node.lastTurn = Math.max(node.lastTurn, turn);
    if (uuid && !node.evidence.includes(uuid)) node.evidence.push(uuid);
  }

  link(from: DraftNode | undefined, to: DraftNode | undefined, type: EdgeType): void {
    if (!from || !to || from === to) return;
    const key = `${from.key}\u0001${to.key}\u0001${type}`;
    if (!this.edges.has(key)) this.edges.set(key, { from, to, type });
  }

  /** The nodes `from` points at with edges of `type`. */
  edgesFrom(from: DraftNode, type: EdgeType): DraftNode[] {
    return [...this.edges.values()].filter((e) => e.from === from && e.type === type).map((e) => e.to);
  }

  /** True when an edge of `type` starts or ends at the node. */
  linked(node: DraftNode, type: EdgeType): boolean {
    return [...this.edges.values()].some((e) => e.type === type && (e.from === node || e.to === node));
  }

  find(type: NodeType, predicate: (node: DraftNode) => boolean): DraftNode | undefined {
    return (this.byType.get(type) ?? []).find(predicate);
  }

  all(type: NodeType): DraftNode[] {
    return [...(this.byType.get(type) ?? [])];
  }

  remove(node: DraftNode): void {
    this.nodes.delete(node.key);
    for (const [key, n] of this.aliases) if (n === node) this.aliases.delete(key);
    const list = this.byType.get(node.type);
    if (list) list.splice(list.indexOf(node), 1);
    for (const [key, edge] of this.edges) if (edge.from === node || edge.to === node) this.edges.delete(key);
  }

  /** Folds `from` into `into`: mentions, evidence and edges move over. */
  merge(from: DraftNode, into: DraftNode): void {
    if (from === into) return;
    into.mentions.push(...from.mentions);
    for (const uuid of from.evidence) if (!into.evidence.includes(uuid)) into.evidence.push(uuid);
    into.firstTurn = Math.min(into.firstTurn, from.firstTurn);
    into.lastTurn = Math.max(into.lastTurn, from.lastTurn);
    into.confidence = Math.max(into.confidence, from.confidence);
    if (from.status && movesForward(into.status, from.status)) into.status = from.status;
    into.detail ??= from.detail;
    for (const rule of from.rules) if (!into.rules.includes(rule)) into.rules.push(rule);
    const moved = [...this.edges.values()].filter((e) => e.from === from || e.to === from);
    const keys = [...this.aliases].filter(([, n]) => n === from).map(([k]) => k);
    this.remove(from);
    for (const key of keys) this.aliases.set(key, into);
    for (const e of moved) this.link(e.from === from ? into : e.from, e.to === from ? into : e.to, e.type);
  }

  finish(sessionId: string | undefined, turns: number, lastAsk: string | null = null): SessionGraph {
    const drafts = [...this.nodes.values()].sort((a, b) => a.seq - b.seq);
    const ids = new Map<DraftNode, string>();
    const used = new Set<string>();
    for (const d of drafts) {
      let id = nodeId(d.type, d.key);
      for (let n = 2; used.has(id); n++) id = `${nodeId(d.type, d.key)}-${n}`;
      used.add(id);
      ids.set(d, id);
    }
    const nodes: GraphNode[] = drafts.map((d) => {
      const node: GraphNode = {
        id: ids.get(d)!,
        type: d.type,
        label: d.label,
        status: d.status,
        importance: importanceOf(d, turns),
        confidence: round3(d.confidence),
        firstTurn: d.firstTurn,
        lastTurn: d.lastTurn,
        evidence: d.evidence,
      };
      if (d.detail) node.detail = d.detail;
      if (d.rules.length) node.rules = d.rules;
      return node;
    });
    const edges: GraphEdge[] = [...this.edges.values()]
      .filter((e) => ids.has(e.from) && ids.has(e.to))
      .map((e) => ({ from: ids.get(e.from)!, to: ids.get(e.to)!, type: e.type }))
      .sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : a.to < b.to ? -1 : a.to > b.to ? 1 : a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
    return { sessionId: sessionId ?? null, turns, lastAsk, nodes, edges };
  }
}

export function nodeId(type: NodeType, key: string): string {
  return `${type.toLowerCase()}:${createHash('sha1').update(key).digest('hex').slice(0, 10)}`;
}

export function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}
