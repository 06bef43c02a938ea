// Reading and writing git objects in bulk: which blobs exist (cat-file --batch-check), new blobs
// in one fast-import pack, trees in one mktree --batch, blob contents through cat-file --batch.
// Git writes every object once under its hash; nothing here rewrites one.

import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, open, rename, unlink, writeFile } from 'node:fs/promises';
import { deflateSync } from 'node:zlib';
import { join } from 'node:path';
import type { Git } from './git.js';
import { pagePath, PAGES_PER_GROUP } from './pages.js';
import { writePack } from './pack-write.js';
import { CmvError } from '../errors.js';

/** Writes larger than this trade compression for speed. */
export const BULK_WRITE_BYTES = 8 * 1024 * 1024;

export interface Blob {
  id: string;
  data: Buffer;
}

/** The ids among `ids` that the store does not hold. */
export async function missingObjects(git: Git, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const { stdout } = await git.stream(['cat-file', '--batch-check'], { input: [ids.join('\n') + '\n'] });
  const missing = new Set<string>();
  for (const line of stdout.toString('utf8').split('\n')) {
    const [id, kind] = line.split(' ');
    if (kind === 'missing') missing.add(id);
  }
  return missing;
}

/**
 * Writes blobs the store lacks as one pack; call the returned function to wait for it. A large
 * write (a long session's first snapshot) is compressed fast and without deltas, to stay within
 * seconds, by cmv itself (pack-write.ts) while this process goes on with other work; `cmv gc`
 * recompresses it properly later. Smaller writes (appends) go through `git fast-import`, compressed
 * hardest, with deltas: the pack keeps them so, repacks included. Its stream is first written to a
 * file that becomes git's stdin, so git compresses while this process goes on.
 */
export async function startWritingBlobs(git: Git, blobs: Blob[], tmpDir: string): Promise<() => Promise<void>> {
  const unique = [...new Map(blobs.map((b) => [b.id, b])).values()];
  if (unique.length === 0) return async () => {};
  const total = unique.reduce((n, b) => n + b.data.length, 0);
  if (total > BULK_WRITE_BYTES) {
    const writing = writePack(git.dir, unique, 1).then(() => undefined);
    writing.catch(() => {}); // awaited by the caller
    return () => writing;
  }
  await mkdir(tmpDir, { recursive: true, mode: 0o700 });
  const streamFile = join(tmpDir, `import-${process.pid}-${randomBytes(4).toString('hex')}`);
  const parts: Buffer[] = [];
  for (const blob of unique) parts.push(Buffer.from(`blob\ndata ${blob.data.length}\n`), blob.data, Buffer.from('\n'));
  parts.push(Buffer.from('done\n'));
  await writeFile(streamFile, Buffer.concat(parts), { flag: 'wx', mode: 0o600 });
  const running = git.stream(['-c', 'pack.compression=9', 'fast-import', '--quiet', '--done'], { input: { file: streamFile } });
  running.catch(() => {}); // awaited by the caller
  return async () => {
    try {
      await running;
    } finally {
      await unlink(streamFile).catch(() => {});
    }
  };
}

export interface TreeEntry {
  mode: '100644' | '40000';
  name: string;
  id: string;
}

export interface TreeObject {
  id: string;
  entries: TreeEntry[];
}

function treeId(entries: TreeEntry[]): string {
  const body = treeBody(entries);
  return createHash('sha1').update(`tree ${body.length}\0`).update(body).digest('hex');
}

function sortKey(entry: TreeEntry): string {
  return entry.mode === '40000' ? `${entry.name}/` : entry.name;
}

/** The trees of a snapshot's log/ folder: log/<group>/<page> for every page, the log tree last (none without pages). */
export function logTrees(pageIds: string[]): TreeObject[] {
  const trees: TreeObject[] = [];
  const groups: TreeEntry[] = [];
  for (let start = 0; start < pageIds.length; start += PAGES_PER_GROUP) {
    const entries: TreeEntry[] = pageIds.slice(start, start + PAGES_PER_GROUP).map((id, i) => ({ mode: '100644', name: pagePath(start + i).split('/')[2], id }));
    const tree = { id: treeId(entries), entries };
    trees.push(tree);
    groups.push({ mode: '40000', name: pagePath(start).split('/')[1], id: tree.id });
  }
  if (groups.length > 0) trees.push({ id: treeId(groups), entries: groups });
  return trees;
}

/** The trees of a snapshot: log/<group>/<page> for every page, meta.json (and side files) at the root. */
export function snapshotTrees(pageIds: string[], metaId: string, sideFiles: { name: string; id: string }[] = []): TreeObject[] {
  const trees = logTrees(pageIds);
  const root: TreeEntry[] = [{ mode: '100644', name: 'meta.json', id: metaId }, ...sideFiles.map((f) => ({ mode: '100644' as const, name: f.name, id: f.id }))];
  if (trees.length > 0) root.push({ mode: '40000', name: 'log', id: trees[trees.length - 1].id });
  trees.push({ id: treeId(root), entries: root });
  return trees;
}

function treeBody(entries: TreeEntry[]): Buffer {
  const sorted = [...entries].sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0));
  return Buffer.concat(sorted.map((e) => Buffer.concat([Buffer.from(`${e.mode} ${e.name}\0`), Buffer.from(e.id, 'hex')])));
}

/**
 * Writes one object loose, as git itself does (the zlib of "<type> <size>\0" and the body, synced,
 * then renamed to objects/<2>/<38>): a snapshot's few small objects without a git process each.
 * Returns the object's id. An object already there loose is left alone.
 */
export async function writeLooseObject(git: Git, type: 'blob' | 'tree' | 'commit', body: Buffer, level = 9): Promise<string> {
  const header = Buffer.from(`${type} ${body.length}\0`);
  const id = createHash('sha1').update(header).update(body).digest('hex');
  const dir = join(git.dir, 'objects', id.slice(0, 2));
  const path = join(dir, id.slice(2));
  if (existsSync(path)) return id;
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `tmp_obj_${process.pid}_${randomBytes(4).toString('hex')}`);
  const handle = await open(temp, 'wx', 0o444);
  try {
    await handle.writeFile(deflateSync(Buffer.concat([header, body]), { level }));
    await handle.sync(); // core.fsync=committed: objects are on disk before a ref names them
  } finally {
    await handle.close();
  }
  await rename(temp, path).catch(async (error) => {
    await unlink(temp).catch(() => {});
    throw error;
  });
  return id;
}

/** Writes the trees (their entries are in the store: pages checked or just written) loose; returns the root's id. `present`: ids the store holds already. */
export async function writeTreeObjects(git: Git, trees: TreeObject[], present: ReadonlySet<string> = new Set()): Promise<string> {
  for (const tree of trees) {
    if (present.has(tree.id)) continue;
    const written = await writeLooseObject(git, 'tree', treeBody(tree.entries), 6);
    if (written !== tree.id) throw new CmvError('INTERNAL', 'cmv wrote a tree under another id than it computed', { details: { written, expected: tree.id } });
  }
  return trees[trees.length - 1].id;
}

export interface TreeFile {
  path: string;
  id: string;
  size: number;
  type: string;
}

/** Every file of a commit's tree, recursively, with sizes. */
export async function listTree(git: Git, commit: string): Promise<TreeFile[]> {
  const out = await git.run(['ls-tree', '-r', '-l', '-z', commit], 'ls-tree');
  const files: TreeFile[] = [];
  for (const record of out.split('\0')) {
    if (!record) continue;
    const tab = record.indexOf('\t');
    const [, type, id, size] = record.slice(0, tab).split(/ +/);
    files.push({ path: record.slice(tab + 1), id, size: Number(size), type });
  }
  return files;
}

/** Contents of objects by id or revision (`<commit>:meta.json`), via one cat-file --batch. */
export async function readObjects(git: Git, specs: string[]): Promise<Map<string, Buffer | undefined>> {
  const result = new Map<string, Buffer | undefined>();
  if (specs.length === 0) return result;
  const unique = [...new Set(specs)];
  const { stdout } = await git.stream(['cat-file', '--batch'], { input: [unique.join('\n') + '\n'] });
  let pos = 0;
  for (const spec of unique) {
    const nl = stdout.indexOf(0x0a, pos);
    const header = stdout.subarray(pos, nl).toString('utf8');
    pos = nl + 1;
    const parts = header.split(' ');
    if (parts[1] === 'missing' || parts[1] === 'ambiguous' || parts.length < 3) {
      result.set(spec, undefined);
      continue;
    }
    const size = Number(parts[2]);
    result.set(spec, stdout.subarray(pos, pos + size));
    pos += size + 1;
  }
  return result;
}

/** The log of a snapshot, re-assembled from its pages. */
export async function readLog(git: Git, commit: string): Promise<Buffer> {
  const pages = (await listTree(git, commit)).filter((f) => f.path.startsWith('log/')).sort((a, b) => (a.path < b.path ? -1 : 1));
  const contents = await readObjects(
    git,
    pages.map((p) => p.id),
  );
  return Buffer.concat(
    pages.map((p) => {
      const data = contents.get(p.id);
      if (!data) throw new CmvError('IO', `page ${p.path} of ${commit.slice(0, 12)} is missing from the store`, { hint: 'run `cmv fsck`' });
      return data;
    }),
  );
}
