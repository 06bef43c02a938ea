// What the snapshot store needs from the graph: the graph as the stable JSON kept beside a
// snapshot (read back with its shape checked), and the resume preamble `cmv branch --with-resume`
// puts in front of a branched session. Pure: the store does the reading and writing.

import { CmvError } from '../errors.js';
import type { JsonObject } from '../session/payload.js';
import { EDGE_TYPES, NODE_TYPES, type SessionGraph } from './model.js';
import { buildResume, type ResumeOptions } from './resume-block.js';
import { summaryRecords } from './summary-records.js';

/** The file name a snapshot keeps its graph under. */
export const GRAPH_FILE = 'graph.json';

/** The graph as stored: the same graph always gives the same bytes. */
export function graphJson(graph: SessionGraph): string {
  return `${JSON.stringify(graph, null, 2)}\n`;
}

/** A stored graph read back; a file that is not one is an error that says so. */
export function readGraphJson(text: string, where = GRAPH_FILE): SessionGraph {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CmvError('BAD_INPUT', `${where} is not JSON: ${(error as Error).message}`, { hint: "rebuild it from the snapshot's log with `cmv graph <session> --json`" });
  }
  const graph = value as SessionGraph;
  const nodeTypes = new Set<string>(NODE_TYPES);
  const edgeTypes = new Set<string>(EDGE_TYPES);
  const ok =
    !!graph &&
    Array.isArray(graph.nodes) &&
    Array.isArray(graph.edges) &&
    graph.nodes.every((n) => typeof n?.id === 'string' && nodeTypes.has(n.type) && typeof n.label === 'string') &&
    graph.edges.every((e) => typeof e?.from === 'string' && typeof e.to === 'string' && edgeTypes.has(e.type));
  if (!ok) throw new CmvError('BAD_INPUT', `${where} is not a cmv session graph`, { hint: "rebuild it from the snapshot's log with `cmv graph <session> --json`" });
  return { sessionId: graph.sessionId ?? null, turns: graph.turns ?? 0, lastAsk: graph.lastAsk ?? null, nodes: graph.nodes, edges: graph.edges };
}

export interface ResumePreamble {
  /** The two lines to write first: a compact_boundary and the summary holding the resume block. */
  lines: Buffer[];
  /** The parentUuid the branched session's first message must take. */
  summaryUuid: string;
  text: string;
  tokens: number;
}

/**
 * The resume block of `graph` as the two lines Claude Code writes for a compaction, so a branched
 * session resumes from it. `first` is the first record of the branched session (its cwd,
 * sessionId and version are copied); `transcriptPath` names where the full history can be read.
 */
export function resumePreamble(graph: SessionGraph, first: JsonObject, options: ResumeOptions & { transcriptPath?: string } = {}): ResumePreamble {
  const block = buildResume(graph, { tier: options.tier ?? (options.budget ? undefined : 'standard'), budget: options.budget, count: options.count });
  const records = summaryRecords({
    block,
    context: first,
    logicalParentUuid: null,
    timestamp: typeof first.timestamp === 'string' ? first.timestamp : undefined,
    preTokens: 0,
    transcriptPath: options.transcriptPath,
    seed: `${graph.sessionId ?? ''}\u0000${String(first.sessionId ?? '')}\u0000${String(first.uuid ?? '')}\u0000resume`,
  });
  return {
    lines: [Buffer.from(JSON.stringify(records.boundary)), Buffer.from(JSON.stringify(records.summary))],
    summaryUuid: records.summaryUuid,
    text: block.text,
    tokens: block.tokens,
  };
}
