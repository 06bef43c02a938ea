// Redacted copies of snapshots, for export and push: each commit of the lineage is rebuilt with
// its pages redacted, parents mapped to their copies. A copy is fully determined by its original
// (same dates, same pages in, same pages out), so redacting again gives the same commits and a
// second push is a no-op; a commit with nothing to redact is shared as it is.

import type { Store } from './store.js';
import { listTree, readObjects } from './objects.js';
import { parseMeta, SIDE_FILES, type SnapshotMeta } from './meta.js';
import { gitBlobId, type Page } from './pages.js';
import { beginPages, writeCommit } from './commit.js';
import { mergeReports, redactStrings, redactText, type RedactionReport } from './redact.js';
import { commitsOf } from './history.js';

export interface RedactedLineage {
  /** Original commit id → the id to send (the same id when nothing was redacted). */
  map: Map<string, string>;
  total: RedactionReport;
  /** Findings per original commit that had any. */
  byCommit: Map<string, RedactionReport>;
}

interface RedactedPage {
  id: string;
  data: Buffer;
  report: RedactionReport;
}

/** Meta fields that name or identify the snapshot rather than describe the session (names and tags are checked as names on import). */
const META_KEPT = new Set([
  'format',
  'kind',
  'name',
  'tags',
  'createdAt',
  'cmvVersion',
  'pageFormat',
  'growth',
  'redaction',
  'sessionId',
  'from',
  'summaryUuid',
  'versions',
  'models',
  'firstTimestamp',
  'lastTimestamp',
]);

function redactPage(data: Buffer): RedactedPage {
  const { text, report } = redactText(data.toString('utf8'));
  if (report.total === 0) return { id: gitBlobId(data), data, report };
  const redacted = Buffer.from(text);
  return { id: gitBlobId(redacted), data: redacted, report };
}

export async function redactLineage(store: Store, tips: string[]): Promise<RedactedLineage> {
  const map = new Map<string, string>();
  const byCommit = new Map<string, RedactionReport>();
  const total: RedactionReport = { total: 0, byKind: {} };
  const pageCache = new Map<string, RedactedPage>();

  // Parents before children, so each commit is rewritten after the ones it points to.
  for (const commit of await commitsOf(store, ['--topo-order', '--reverse', ...tips])) {
    const tree = await listTree(store.git, commit.id);
    const files = tree.filter((f) => f.path.startsWith('log/')).sort((a, b) => (a.path < b.path ? -1 : 1));
    const sideFiles = tree.filter((f) => SIDE_FILES.has(f.path));
    const unread = [...new Set(files.map((f) => f.id))].filter((id) => !pageCache.has(id));
    const contents = await readObjects(store.git, [`${commit.id}:meta.json`, ...unread, ...sideFiles.map((f) => f.id)]);
    for (const id of unread) pageCache.set(id, redactPage(contents.get(id)!));
    const meta = parseMeta(contents.get(`${commit.id}:meta.json`));
    const pages = files.map((f) => pageCache.get(f.id)!);
    const report: RedactionReport = { total: 0, byKind: {} };
    for (const page of pages) mergeReports(report, page.report);
    // Every text of the meta goes too (the message, tags, paths, the trim's options); not the
    // fields cmv reads back to know what the snapshot is.
    const metaReport: RedactionReport = { total: 0, byKind: {} };
    const meta2 = redactStrings(meta, metaReport, META_KEPT);
    mergeReports(report, metaReport);
    // Side files (the session graph) are JSON text too: redacted the same way.
    const side = sideFiles.map((f) => {
      const redacted = redactText(contents.get(f.id)!.toString('utf8'));
      mergeReports(report, redacted.report);
      return { name: f.path, data: Buffer.from(redacted.text) };
    });
    const parents = commit.parents.map((p) => map.get(p) ?? p);
    const parentsChanged = parents.some((p, i) => p !== commit.parents[i]);
    if (report.total === 0 && !parentsChanged) {
      map.set(commit.id, commit.id);
      continue;
    }
    if (report.total > 0) byCommit.set(commit.id, report);
    mergeReports(total, report);
    const redactedMeta: SnapshotMeta = {
      ...meta2,
      facts: { ...meta2.facts, bytes: pages.reduce((n, p) => n + p.data.length, 0) },
      redaction: { from: commit.id, findings: { ...(meta.redaction?.findings ?? {}), ...(report.byKind as Record<string, number>) } },
    };
    const data = Buffer.concat(pages.map((p) => p.data));
    let offset = 0;
    const layout: Page[] = pages.map((p) => {
      const page = { offset, bytes: p.data.length, id: p.id };
      offset += p.data.length;
      return page;
    });
    const write = await beginPages(store, data, layout);
    await write.done();
    const { commit: copy } = await writeCommit(
      store,
      layout.map((p) => p.id),
      redactedMeta,
      parents,
      side,
    );
    map.set(commit.id, copy);
  }
  return { map, total, byCommit };
}
