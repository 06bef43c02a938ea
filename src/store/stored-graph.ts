// The session graph kept beside a snapshot's log (graph.json): built from the model the snapshot
// already made of its log, read back for diffs and resume blocks, rebuilt from the log when absent.

import type { Store } from './store.js';
import { readObjects } from './objects.js';
import type { Session } from '../session/session.js';
import { buildGraph } from '../graph/build-graph.js';
import { GRAPH_FILE, graphJson, readGraphJson } from '../graph/snapshot-graph.js';
import type { SessionGraph } from '../graph/model.js';

/** Where a commit's graph came from: its graph.json, or built again from its log. */
export type GraphSource = 'stored' | 'rebuilt';

export interface GraphSideFile {
  name: string;
  data: Buffer;
  graph: SessionGraph;
}

/**
 * graph.json for a modelled log. A graph that cannot be built leaves the snapshot without one
 * (a snapshot is a safety net and must not fail for it; a diff rebuilds it) and says why.
 */
export function graphSideFile(session: Session, warnings: string[]): GraphSideFile | undefined {
  try {
    const graph = buildGraph(session);
    return { name: GRAPH_FILE, data: Buffer.from(graphJson(graph)), graph };
  } catch (error) {
    warnings.push(`the session graph could not be built (${(error as Error).message}): the snapshot is stored without it, and \`cmv diff\` rebuilds it from the log`);
    return undefined;
  }
}

/** The graphs stored beside commits; a commit without one, or with one that does not read, has none. */
export async function readStoredGraphs(store: Store, ids: string[]): Promise<Map<string, SessionGraph | undefined>> {
  const objects = await readObjects(
    store.git,
    ids.map((id) => `${id}:${GRAPH_FILE}`),
  );
  const graphs = new Map<string, SessionGraph | undefined>();
  for (const id of ids) {
    const data = objects.get(`${id}:${GRAPH_FILE}`);
    let graph: SessionGraph | undefined;
    try {
      graph = data ? readGraphJson(data.toString('utf8')) : undefined;
    } catch {
      graph = undefined; // `cmv fsck` names it; here the log says the same
    }
    graphs.set(id, graph);
  }
  return graphs;
}

/** A commit's graph: the stored one, else built from the model of its log that `model` gives. */
export function graphOrRebuilt(stored: SessionGraph | undefined, model: () => Session): { graph: SessionGraph; source: GraphSource } {
  return stored ? { graph: stored, source: 'stored' } : { graph: buildGraph(model()), source: 'rebuilt' };
}
