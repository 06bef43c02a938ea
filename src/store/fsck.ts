// `cmv fsck`: git's own check of every object (hashes, links, packs), then cmv's: each snapshot's
// meta.json is sound, its tree holds exactly meta.json, contiguous pages and perhaps graph.json (a
// session graph that reads back), every page's content hashes to its id, and the pages add up to
// the bytes and lines the meta recorded.

import type { Store } from './store.js';
import { listTree, readObjects, type TreeFile } from './objects.js';
import { parseMeta, SIDE_FILES } from './meta.js';
import { countLines, gitBlobId, pageIndexOf } from './pages.js';
import { storeSize } from './maintenance.js';
import { BRANCH_REFS, INCOMING_REFS, SESSION_REFS, SNAPSHOT_REFS } from './names.js';
import { refsUnder } from './refs.js';
import { CmvError } from '../errors.js';
import { readGraphJson } from '../graph/snapshot-graph.js';

export interface FsckProblem {
  kind: 'git' | 'meta' | 'graph' | 'layout' | 'page' | 'size';
  message: string;
  /** The commit concerned, when there is one. */
  id?: string;
}

export interface FsckReport {
  ok: boolean;
  objects: number;
  snapshots: number;
  pages: number;
  problems: FsckProblem[];
}

async function gitFsck(store: Store): Promise<FsckProblem[]> {
  const { stdout, stderr } = await store.git.stream(['fsck', '--full', '--strict', '--no-dangling', '--no-progress'], { okCodes: [1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 20] }).catch((error: unknown) => {
    if (error instanceof CmvError && error.code === 'NOT_FOUND') throw error; // git missing
    return { stdout: Buffer.alloc(0), stderr: error instanceof Error ? String((error as CmvError).details ?? error.message) : String(error) };
  });
  return `${stdout.toString('utf8')}\n${stderr}`
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('notice:') && !l.startsWith('Checking') && !l.startsWith('dangling'))
    .map((message) => ({ kind: 'git' as const, message }));
}

/** The commits cmv's refs reach; a ref to anything but a commit is a problem of its own. */
async function cmvCommits(store: Store, problems: FsckProblem[]): Promise<string[]> {
  const refs = await refsUnder(store, SNAPSHOT_REFS.slice(0, -1), BRANCH_REFS.slice(0, -1), SESSION_REFS.slice(0, -1), INCOMING_REFS.slice(0, -1)).catch(() => []);
  const heads: string[] = [];
  for (const r of refs) {
    if (r.ref.startsWith(INCOMING_REFS)) problems.push({ kind: 'layout', id: r.id, message: `${r.ref} was left by an import that did not finish: the next import removes it` });
    else if (r.type !== 'commit') problems.push({ kind: 'layout', id: r.id, message: `${r.ref} names a ${r.type}, not a snapshot commit: \`cmv rm\` removes it` });
    else heads.push(r.id);
  }
  if (heads.length === 0) return [];
  const out = await store.git.run(['log', '--format=%H', ...new Set(heads), '--'], 'log').catch(() => '');
  return out.split('\n').filter(Boolean);
}

/** Page contents; a read git cannot do (a damaged pack) becomes a problem, page by page. */
async function readPages(store: Store, ids: string[], commit: string, problems: FsckProblem[]): Promise<Map<string, Buffer | undefined>> {
  try {
    return await readObjects(store.git, ids);
  } catch {
    const contents = new Map<string, Buffer | undefined>();
    for (const pageId of ids) {
      try {
        contents.set(pageId, (await readObjects(store.git, [pageId])).get(pageId));
      } catch (error) {
        contents.set(pageId, undefined);
        problems.push({ kind: 'page', id: commit, message: `page ${pageId} of ${commit.slice(0, 12)} cannot be read: ${(error as Error).message}` });
      }
    }
    return contents;
  }
}

/** The files beside meta.json (the session graph) must read back as what they are. */
async function sideFileProblems(store: Store, id: string, files: TreeFile[]): Promise<FsckProblem[]> {
  const side = files.filter((f) => SIDE_FILES.has(f.path));
  if (side.length === 0) return [];
  const where = (path: string) => `${path} of ${id.slice(0, 12)}`;
  let contents: Map<string, Buffer | undefined>;
  try {
    contents = await readObjects(store.git, side.map((f) => f.id));
  } catch (error) {
    return side.map((f) => ({ kind: 'graph' as const, id, message: `${where(f.path)} cannot be read: ${(error as Error).message}` }));
  }
  const problems: FsckProblem[] = [];
  for (const file of side) {
    const data = contents.get(file.id);
    if (file.type !== 'blob' || !data) {
      problems.push({ kind: 'graph', id, message: `${where(file.path)} is ${file.type !== 'blob' ? `a ${file.type}, not a file` : 'missing'}` });
      continue;
    }
    try {
      readGraphJson(data.toString('utf8'), where(file.path));
    } catch (error) {
      problems.push({ kind: 'graph', id, message: (error as Error).message });
    }
  }
  return problems;
}

export async function checkStore(store: Store): Promise<FsckReport> {
  const problems = await gitFsck(store);
  const commits = await cmvCommits(store, problems);
  const pageLines = new Map<string, number>();
  const badPages = new Set<string>();

  for (const id of commits) {
    let files;
    try {
      files = await listTree(store.git, id);
    } catch (error) {
      problems.push({ kind: 'layout', id, message: `cannot read the tree of ${id.slice(0, 12)}: ${(error as Error).message}` });
      continue;
    }
    let meta;
    try {
      meta = parseMeta((await readObjects(store.git, [`${id}:meta.json`])).get(`${id}:meta.json`));
    } catch (error) {
      problems.push({ kind: 'meta', id, message: `${id.slice(0, 12)}: ${(error as Error).message}` });
    }
    problems.push(...(await sideFileProblems(store, id, files)));
    const pages = files.filter((f) => f.path !== 'meta.json' && !SIDE_FILES.has(f.path));
    const indexed = pages.map((f) => ({ file: f, index: pageIndexOf(f.path) })).sort((a, b) => (a.index ?? -1) - (b.index ?? -1));
    indexed.forEach(({ file, index }, i) => {
      if (index === undefined) problems.push({ kind: 'layout', id, message: `${id.slice(0, 12)}: unexpected file ${file.path}` });
      else if (index !== i) problems.push({ kind: 'layout', id, message: `${id.slice(0, 12)}: page ${i} is missing (found ${file.path})` });
      if (file.type !== 'blob') problems.push({ kind: 'layout', id, message: `${id.slice(0, 12)}: ${file.path} is a ${file.type}, not a page` });
    });
    // Every page's content against its id, each distinct page once.
    const unread = [...new Set(pages.map((p) => p.id))].filter((p) => !pageLines.has(p) && !badPages.has(p));
    const contents = await readPages(store, unread, id, problems);
    for (const pageId of unread) {
      const data = contents.get(pageId);
      if (!data) {
        badPages.add(pageId);
        problems.push({ kind: 'page', id, message: `page ${pageId} of ${id.slice(0, 12)} is missing` });
      } else if (gitBlobId(data) !== pageId) {
        badPages.add(pageId);
        problems.push({ kind: 'page', id, message: `page ${pageId} of ${id.slice(0, 12)} does not hash to its id` });
      } else {
        pageLines.set(pageId, countLines(data).lines);
      }
    }
    if (meta) {
      const bytes = pages.reduce((n, p) => n + p.size, 0);
      const lines = pages.reduce((n, p) => n + (pageLines.get(p.id) ?? 0), 0);
      if (bytes !== meta.facts.bytes) problems.push({ kind: 'size', id, message: `${id.slice(0, 12)}: pages hold ${bytes} bytes, meta says ${meta.facts.bytes}` });
      if (!pages.some((p) => badPages.has(p.id)) && lines !== meta.facts.lines) {
        problems.push({ kind: 'size', id, message: `${id.slice(0, 12)}: pages hold ${lines} lines, meta says ${meta.facts.lines}` });
      }
    }
  }
  const size = await storeSize(store).catch(() => ({ objects: 0, bytes: 0 }));
  return { ok: problems.length === 0, objects: size.objects, snapshots: commits.length, pages: pageLines.size + badPages.size, problems };
}
