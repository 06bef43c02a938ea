// A session with a resume preamble in front, as `cmv branch --with-resume` would write it: the
// two summary lines first, the session's first message re-parented to the summary.

import { readFileSync } from 'node:fs';
import { openSession } from '../../src/session/session.js';
import { buildGraph } from '../../src/graph/build-graph.js';
import { resumePreamble } from '../../src/graph/snapshot-graph.js';

/** A session with the preamble written first and its first message re-parented to the summary. */
export async function withPreamble(path: string, graphPath = path): Promise<{ lines: Buffer[]; summaryUuid: string; text: string }> {
  const graph = buildGraph(await openSession(graphPath));
  const records = readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const first = records.find((r) => r.type === 'user' && r.parentUuid === null)!;
  const preamble = resumePreamble(graph, first, { transcriptPath: graphPath });
  first.parentUuid = preamble.summaryUuid;
  return { lines: [...preamble.lines, ...records.map((r) => Buffer.from(JSON.stringify(r)))], summaryUuid: preamble.summaryUuid, text: preamble.text };
}
