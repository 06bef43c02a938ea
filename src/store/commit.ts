// Writing one snapshot commit: the log's pages the store lacks (one fast-import pack, started
// early so git compresses while the caller models the session), meta.json, the trees, and a
// commit whose parents are the lineage. Refs are moved by the caller, last.

import type { Store } from './store.js';
import type { Page } from './pages.js';
import { missingObjects, snapshotTrees, startWritingBlobs, writeTrees } from './objects.js';
import { gitDate, serialiseMeta, type SnapshotMeta } from './meta.js';
import { gitBlobId } from './pages.js';

export interface PagesWrite {
  /** Bytes of the pages the store did not hold yet. */
  newBytes: number;
  newPages: number;
  /** Waits until git has written them. */
  done: () => Promise<void>;
}

export async function beginPages(store: Store, data: Buffer, pages: Page[]): Promise<PagesWrite> {
  const missing = await missingObjects(store.git, pages.map((p) => p.id));
  const blobs = pages.filter((p) => missing.has(p.id)).map((p) => ({ id: p.id, data: data.subarray(p.offset, p.offset + p.bytes) }));
  const unique = [...new Map(blobs.map((b) => [b.id, b])).values()];
  const done = await startWritingBlobs(store.git, unique, store.tmpDir);
  return { newBytes: unique.reduce((n, b) => n + b.data.length, 0), newPages: unique.length, done };
}

const IDENTITY = { name: 'cmv', email: 'cmv@localhost' };

/** One small blob (meta.json, a side file), written loose and compressed hard (git's default for loose objects is fastest). */
export async function writeBlob(store: Store, data: Buffer): Promise<string> {
  const id = gitBlobId(data);
  const { stdout } = await store.git.stream(['-c', 'core.looseCompression=9', 'hash-object', '-w', '--stdin'], { input: [data] });
  if (stdout.toString('utf8').trim() !== id) throw new Error('git stored a blob under another id than cmv computed');
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

/** Writes meta.json, the trees and the commit; returns the commit id. The same inputs give the same commit. */
export async function writeCommit(
  store: Store,
  pageIds: string[],
  meta: SnapshotMeta,
  parents: string[],
  sideFiles: { name: string; data: Buffer }[] = [],
): Promise<{ commit: string; tree: string }> {
  const metaId = await writeBlob(store, serialiseMeta(meta));
  const side = [];
  for (const file of sideFiles) side.push({ name: file.name, id: await writeBlob(store, file.data) });
  const tree = await writeTrees(store.git, snapshotTrees(pageIds, metaId, side));
  const date = gitDate(meta);
  const env = {
    GIT_AUTHOR_NAME: IDENTITY.name,
    GIT_AUTHOR_EMAIL: IDENTITY.email,
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_NAME: IDENTITY.name,
    GIT_COMMITTER_EMAIL: IDENTITY.email,
    GIT_COMMITTER_DATE: date,
  };
  const args = ['commit-tree', '--no-gpg-sign', tree, ...parents.flatMap((p) => ['-p', p]), '-m', commitMessage(meta)];
  const commit = (await store.git.runWithEnv(args, env, 'commit-tree')).trim();
  return { commit, tree };
}
