// The session knowledge graph: typed nodes (TokenMizer's 14 types) grounded in the log's lines,
// typed edges between them, and the status order that lets a status only move forward.

export const NODE_TYPES = ['GOAL', 'TASK', 'DECISION', 'FILE', 'ERROR', 'TEST', 'SCHEMA', 'METRIC', 'DEPENDENCY', 'API', 'ENVIRONMENT', 'PROJECT', 'CONCEPT', 'AGENT'] as const;
export type NodeType = (typeof NODE_TYPES)[number];

export const EDGE_TYPES = ['DEPENDS_ON', 'RELATED_TO', 'IMPLEMENTS', 'FIXES', 'BLOCKS', 'PART_OF', 'SUPERSEDES'] as const;
export type EdgeType = (typeof EDGE_TYPES)[number];

export type NodeStatus = 'pending' | 'in_progress' | 'completed' | 'failed' | 'modified';

/**
 * How far along a status is. A status moves only to a higher rank: a task never goes back from
 * completed to pending, a fixed error never reopens (a new failure is a new error node).
 */
const STATUS_RANK: Record<NodeStatus, number> = { pending: 0, in_progress: 1, failed: 2, modified: 3, completed: 3 };

export function movesForward(from: NodeStatus | null, to: NodeStatus): boolean {
  return from === null || STATUS_RANK[to] > STATUS_RANK[from];
}

export interface GraphNode {
  /** `<type>:<hash of the label key>`: the same log gives the same ids. */
  id: string;
  type: NodeType;
  /** Normalised, meaning kept: paths exact, versions whole. */
  label: string;
  status: NodeStatus | null;
  /** 0..1: rises each time the session refers to the node, decays over the turns since. */
  importance: number;
  /** 0..1: how directly the log states it (a tool call is 1, a phrase in prose less). */
  confidence: number;
  firstTurn: number;
  lastTurn: number;
  /** uuids of the lines the node came from, in log order. */
  evidence: string[];
  /** A few words more: the why of a decision, test counts, an agent's task, a metric's value. */
  detail?: string;
  /** Ids of the rules that made the node (src/graph/rules): `cmv graph --explain` shows them. */
  rules?: string[];
}

export interface GraphEdge {
  from: string;
  to: string;
  type: EdgeType;
}

export interface SessionGraph {
  sessionId: string | null;
  /** Real user prompts in the session (turn 0 is everything before the first). */
  turns: number;
  /** What the user asked last, in their words (clipped): the resume block ends with it. */
  lastAsk: string | null;
  nodes: GraphNode[];
  edges: GraphEdge[];
}
