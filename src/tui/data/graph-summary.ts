// The graph summary of the detail pane (goal, open tasks, decisions, files), from the knowledge
// graph of the session already open. Imported dynamically: without src/graph it is not available.

import type { Session } from '../../session/session.js';
import { settle, type Availability } from './availability.js';

export interface GraphSummaryView {
  goal: string[];
  inProgress: string[];
  pending: string[];
  errors: string[];
  decisions: string[];
  files: string[];
  lastAsk: string[];
  nodes: number;
}

export async function loadGraphSummary(session: Session): Promise<Availability<GraphSummaryView>> {
  return settle('the graph summary', async () => {
    const [{ buildGraph }, { buildResume }] = await Promise.all([import('../../graph/build-graph.js'), import('../../graph/resume-block.js')]);
    const graph = buildGraph(session);
    const { sections } = buildResume(graph, { tier: 'full' });
    return {
      goal: sections.goal,
      inProgress: sections.inProgress,
      pending: sections.pending,
      errors: sections.errors,
      decisions: sections.decisions,
      files: sections.files,
      lastAsk: sections.lastAsk,
      nodes: graph.nodes.length,
    };
  });
}
