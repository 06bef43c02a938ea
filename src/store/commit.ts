// Writing one snapshot commit: the log's pages the store lacks (one fast-import pack, started
// early so git compresses while the caller models the session), meta.json, the trees, and a
// commit whose parents are the lineage. Refs are moved by the caller, last.

import type { Store } from './store.js';
import type { Page } from './pages.js';
import { logTrees, missingObjects, snapshotTrees, startWritingBlobs, writeLooseObject, writeTreeObjects } from './objects.js';
import { gitDate, serialiseMeta, type SnapshotMeta } from './meta.js';
import { gitBlobId } from './pages.js';

export interface PagesWrite {
  /** Bytes of the pages the store did not hold yet. */
  newBytes: number;
  newPages: number;
  /** The log's trees (log/ and its page folders) the store holds already: not written again. */
  presentTrees: Set<string>;
  /** Waits until git has written them. */
  done: () => Promise<void>;
}

export async function beginPages(store: Store, data: Buffer, pages: Page[]): Promise<PagesWrite> {
  // The page folders of an unchanged stretch of log are the parent's: asked for with the pages.
  const trees = logTrees(pages.map((p) => p.id)).map((t) => t.id);
  const missing = await missingObjects(store.git, [...pages.map((p) => p.id), ...trees]);
  const blobs = pages.filter((p) => missing.has(p.id)).map((p) => ({ id: p.id, data: data.subarray(p.offset, p.offset + p.bytes) }));
  const unique = [...new Map(blobs.map((b) => [b.id, b])).values()];
  const done = await startWritingBlobs(store.git, unique, store.tmpDir);
  return { newBytes: unique.reduce((n, b) => n + b.data.length, 0), newPages: unique.length, presentTrees: new Set(trees.filter((id) => !missing.has(id))), done };
}

const IDENTITY = { name: 'cmv', email: 'cmv@localhost' };

/** One small blob (meta.json, a side file), written loose and compressed hard (git's default for loose objects is fastest). */
export async function writeBlob(store: Store, data: Buffer): Promise<string> {
  const id = await writeLooseObject(store.git, 'blob', data, 9);
  if (id !== gitBlobId(data)) throw new Error('cmv stored a blob under another id than it computed');
  return id;
}

function commitMessage(meta: SnapshotMeta): string {
  const lines = [`${meta.kind} ${meta.name}`];
  if (meta.message) lines.push('', meta.message);
  const trailers = [`Cmv-Kind: ${meta.kind}`];
  if (meta.source.sessionId) trailers.push(`Cmv-Session: ${meta.source.sessionId}`);
  if (meta.tags.length) trailers.push(`Cmv-Tags: ${meta.tags.join(',')}`);
  lines.push('', ...trailers);
  return lines.join('\n');
}

/** A commit object's text as `git commit-tree -m` writes it, with cmv's fixed identity. */
export function commitBody(tree: string, parents: string[], date: string, message: string): Buffer {
  const who = `${IDENTITY.name} <${IDENTITY.email}> ${date}`;
  const head = [`tree ${tree}`, ...parents.map((p) => `parent ${p}`), `author ${who}`, `committer ${who}`];
  return Buffer.from(`${head.join('\n')}\n\n${message}\n`);
}

/**
 * Writes meta.json, the trees and the commit; returns the commit id. The same inputs give the same
 * commit. Written loose by cmv itself (a few small objects), not by a git process each;
 * `presentTrees` (from beginPages) are trees the store holds already.
 */
export async function writeCommit(
  store: Store,
  pageIds: string[],
  meta: SnapshotMeta,
  parents: string[],
  sideFiles: { name: string; data: Buffer }[] = [],
  presentTrees?: ReadonlySet<string>,
): Promise<{ commit: string; tree: string }> {
  const metaId = await writeBlob(store, serialiseMeta(meta));
  const side = [];
  for (const file of sideFiles) side.push({ name: file.name, id: await writeBlob(store, file.data) });
  const tree = await writeTreeObjects(store.git, snapshotTrees(pageIds, metaId, side), presentTrees);
  const commit = await writeLooseObject(store.git, 'commit', commitBody(tree, parents, gitDate(meta), commitMessage(meta)), 6);
  return { commit, tree };
}
