// `cmv fsck`: git's own check of every object (hashes, links, packs), then cmv's: each snapshot's
// meta.json is sound, its tree holds exactly meta.json, contiguous pages and perhaps graph.json (a
// session graph that reads back), every page's content hashes to its id, and the pages add up to
// the bytes and lines the meta recorded.

import type { Store } from './store.js';
import { listTree, readObjects, type TreeFile } from './objects.js';
import { parseMeta, SIDE_FILES } from './meta.js';
import { countLines, gitBlobId, pageIndexOf } from './pages.js';
import { storeSize } from './maintenance.js';
import { BRANCH_REFS, INCOMING_REFS, SESSION_REFS, SNAPSHOT_REFS, parseRef } from './names.js';
import { listNames, refsUnder } from './refs.js';
import { CmvError } from '../errors.js';
import { readGraphJson } from '../graph/snapshot-graph.js';

export interface FsckProblem {
  kind: 'git' | 'meta' | 'graph' | 'layout' | 'page' | 'size';
  message: string;
  /** The commit concerned, when there is one. */
  id?: string;
  /** The snapshot or branch concerned, by name ("work", or "work's history" for an earlier commit of it). */
  snapshot?: string;
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
  const lines = `${stdout.toString('utf8')}\n${stderr}`
    .split('\n')
    .map((l) => l.trim().replace(/\s+/g, ' '))
    .filter((l) => l && !l.startsWith('notice:') && !l.startsWith('Checking') && !l.startsWith('dangling'));
  // "broken link from tree X" / "to blob Y" is one finding over two lines.
  const findings: string[] = [];
  for (const line of lines) {
    if (line.startsWith('to ') && findings.length > 0 && findings[findings.length - 1].startsWith('broken link')) findings[findings.length - 1] += ` ${line}`;
    else findings.push(line);
  }
  return findings.map((message) => ({ kind: 'git' as const, message }));
}

interface CmvCommit {
  id: string;
  tree: string;
  /** The name it is known by: its own, or "<name>'s history" for an earlier commit reached from it. */
  label?: string;
}

/**
 * Every commit of cmv's refs, with the name of the ref it was reached from (`%S`); a ref to anything
 * but a commit, or one an unfinished import left, is a problem of its own (and is not walked).
 */
async function cmvCommits(store: Store, problems: FsckProblem[]): Promise<CmvCommit[]> {
  const refs = await refsUnder(store, SNAPSHOT_REFS.slice(0, -1), BRANCH_REFS.slice(0, -1), SESSION_REFS.slice(0, -1), INCOMING_REFS.slice(0, -1)).catch(() => []);
  const heads: string[] = [];
  for (const r of refs) {
    if (r.ref.startsWith(INCOMING_REFS)) problems.push({ kind: 'layout', id: r.id, message: `${r.ref} was left by an import that did not finish: the next import removes it` });
    else if (r.type !== 'commit') problems.push({ kind: 'layout', id: r.id, message: `${r.ref} names a ${r.type}, not a snapshot commit: \`cmv rm\` removes it` });
    else heads.push(r.ref);
  }
  if (heads.length === 0) return [];
  const out = await store.git.run(['log', '--format=%H %T %S', ...heads, '--'], 'log').catch(() => '');
  const tips = new Map((await listNames(store).catch(() => [])).map((n) => [n.id, n.name]));
  const seen = new Set<string>();
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [id, tree, ref = ''] = line.split(' ');
      const via = parseRef(ref)?.name;
      return { id, tree, label: tips.get(id) ?? (via ? `${via}'s history` : undefined) };
    })
    .filter((c) => !seen.has(c.id) && (seen.add(c.id), true));
}

/** "snapshot work: ..." or the commit's short id when no name reaches it. */
function named(commit: CmvCommit): string {
  return commit.label ? `snapshot ${commit.label} (${commit.id.slice(0, 12)})` : commit.id.slice(0, 12);
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
    contents = await readObjects(
      store.git,
      side.map((f) => f.id),
    );
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
  const problems: FsckProblem[] = [];
  const gitProblems = await gitFsck(store);
  // git fsck --full has checked every object against its hash; cmv hashes pages again only to
  // say which ones are damaged when git found damage.
  const rehash = gitProblems.length > 0;
  const commits = await cmvCommits(store, problems);
  const pageLines = new Map<string, number>();
  const badPages = new Set<string>();
  /** Which snapshots hold each object: to name them in git's own findings. */
  const holders = new Map<string, CmvCommit[]>();
  const hold = (objectId: string, commit: CmvCommit) => holders.set(objectId, [...(holders.get(objectId) ?? []), commit]);
  const metaSpecs = commits.map((c) => `${c.id}:meta.json`);
  // One read for every meta; one by one only when a damaged store breaks the batch.
  const metas = await readObjects(store.git, metaSpecs).catch(async () => {
    const each = new Map<string, Buffer | undefined>();
    for (const spec of metaSpecs) each.set(spec, (await readObjects(store.git, [spec]).catch(() => undefined))?.get(spec));
    return each;
  });

  for (const commit of commits) {
    const { id } = commit;
    const at = named(commit);
    const problem = (kind: FsckProblem['kind'], message: string) => problems.push({ kind, id, snapshot: commit.label, message });
    hold(id, commit);
    hold(commit.tree, commit);
    let files;
    try {
      files = await listTree(store.git, id);
    } catch (error) {
      problem('layout', `cannot read the tree of ${at}: ${(error as Error).message}`);
      continue;
    }
    for (const f of files) hold(f.id, commit);
    let meta;
    try {
      meta = parseMeta(metas.get(`${id}:meta.json`));
    } catch (error) {
      problem('meta', `${at}: ${(error as Error).message}`);
    }
    for (const p of await sideFileProblems(store, id, files)) problems.push({ ...p, snapshot: commit.label });
    const pages = files.filter((f) => f.path !== 'meta.json' && !SIDE_FILES.has(f.path));
    const indexed = pages.map((f) => ({ file: f, index: pageIndexOf(f.path) })).sort((a, b) => (a.index ?? -1) - (b.index ?? -1));
    indexed.forEach(({ file, index }, i) => {
      if (index === undefined) problem('layout', `${at}: unexpected file ${file.path}`);
      else if (index !== i) problem('layout', `${at}: page ${i} is missing (found ${file.path})`);
      if (file.type !== 'blob') problem('layout', `${at}: ${file.path} is a ${file.type}, not a page`);
    });
    // Every distinct page once: its lines, and (after damage) its content against its id.
    const unread = [...new Set(pages.map((p) => p.id))].filter((p) => !pageLines.has(p) && !badPages.has(p));
    const contents = await readPages(store, unread, id, problems);
    for (const pageId of unread) {
      const data = contents.get(pageId);
      if (!data) {
        badPages.add(pageId);
        problem('page', `page ${pageId} of ${at} is missing`);
      } else if (rehash && gitBlobId(data) !== pageId) {
        badPages.add(pageId);
        problem('page', `page ${pageId} of ${at} does not hash to its id`);
      } else {
        pageLines.set(pageId, countLines(data).lines);
      }
    }
    if (meta) {
      const bytes = pages.reduce((n, p) => n + p.size, 0);
      const lines = pages.reduce((n, p) => n + (pageLines.get(p.id) ?? 0), 0);
      if (Number.isFinite(bytes) && bytes !== meta.facts.bytes) problem('size', `${at}: pages hold ${bytes} bytes, meta says ${meta.facts.bytes}`);
      if (!pages.some((p) => badPages.has(p.id)) && lines !== meta.facts.lines) problem('size', `${at}: pages hold ${lines} lines, meta says ${meta.facts.lines}`);
    }
  }
  // git's findings name objects: say which snapshots hold them.
  const named_ = gitProblems.map((p) => {
    const owners = [...new Set((p.message.match(/\b[0-9a-f]{40}\b/g) ?? []).flatMap((objectId) => holders.get(objectId) ?? []))];
    if (owners.length === 0) return p;
    const labels = [...new Set(owners.map((o) => o.label ?? o.id.slice(0, 12)))];
    const shown = labels.slice(0, 3).join(', ') + (labels.length > 3 ? ` and ${labels.length - 3} more` : '');
    return { ...p, id: owners[0].id, snapshot: owners[0].label, message: `in ${shown}: ${p.message}` };
  });
  const size = await storeSize(store).catch(() => ({ objects: 0, bytes: 0 }));
  const all = [...named_, ...problems];
  return { ok: all.length === 0, objects: size.objects, snapshots: commits.length, pages: pageLines.size + badPages.size, problems: all };
}
