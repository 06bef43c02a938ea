// `cmv snapshot`: stores a session log as a commit without touching the log, with its session
// graph beside it. A log that grew by appends since its last snapshot shares every earlier page
// with it; the new commit's parent is the session's last snapshot (or the branch it came from).

import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { FactsJob } from './facts-worker.js';
import { basename, resolve } from 'node:path';
import type { Store } from './store.js';
import { maintain, withStoreLock } from './store.js';
import { gitBlobId, pagePlaces, pagesAt, paginateAppended, PAGE_FORMAT, type Page, type PagePlace, type PageRule } from './pages.js';
import { beginPages, writeCommit, type PagesWrite } from './commit.js';
import { listTree, readObjects } from './objects.js';
import { parseMeta, type SnapshotMeta } from './meta.js';
import { appendFacts, factsOfParts, factsOf, sessionOfBuffer, storedFacts, type SessionFactsSummary } from './session-facts.js';
import type { GraphSideFile } from './stored-graph.js';
import { readProjectState } from './project-state.js';
import { checkName, isUuid, nameProblem, refOf, sessionRef } from './names.js';
import { listNames, namesAnd, nameTaken, updateRefs, ZERO_ID, type RefUpdate } from './refs.js';
import { cmvVersion } from '../version.js';
import { splitRawLines } from '../session/line-reader.js';
import { parseLine } from '../session/entry.js';
import { CmvError, fromSystemError } from '../errors.js';
import { requireRegularFile } from '../session/regular-file.js';
import { workerAnswer, workerForLater } from '../worker-answer.js';
import { handedPartEnd, historyChainFromText, type HistoryChain } from '../trim/history-chain.js';

/** A log written this recently may be mid-turn: the snapshot still works, but says so. */
export const ACTIVE_MS = 2 * 60 * 1000;

/**
 * Logs up to this size get their session graph stored beside them. The graph needs the whole log
 * modelled and costs about 25 ms per MB to build, so a bigger log (a 50 MB snapshot would take
 * 2 s instead of 1, and every later snapshot of it 1.5 s instead of 0.3) is stored without one:
 * the graph is a pure function of the log, and `cmv diff` and `cmv branch --with-resume` rebuild
 * it from the log when they need it (bench/store.js measures both).
 */
export const GRAPH_MAX_BYTES = 24 * 1024 * 1024;

export interface SnapshotOptions {
  name?: string;
  message?: string;
  tags?: string[];
  now?: Date;
  /** How the log is cut into pages (benchmarks compare layouts; the default is PAGE_RULE). */
  pageRule?: PageRule;
  /** Store the session graph for logs up to this size (default GRAPH_MAX_BYTES). */
  graphMaxBytes?: number;
  /** Model at least this many bytes of a log without a graph in a worker thread (default FACTS_WORKER_BYTES). */
  factsWorkerBytes?: number;
  /**
   * Called once the snapshot holds the log's bytes (read under the store's lock): from then on
   * the log may change (the PreCompact hook trims it) without changing the snapshot.
   */
  onRead?: () => void;
  /**
   * Called once with the chain of the first part of the log's history (the lines before its last
   * compaction boundary, up to handedPartEnd) as a trim that copies them as they are reads them,
   * when the snapshot read it anyway (the first snapshot of a long log, modelled in a worker
   * thread), else with undefined: the PreCompact hook's trim then reads the history only once,
   * that part here, the rest itself meanwhile (history-chain.ts).
   */
  handChain?: (chain: HistoryChain | undefined) => void;
}

export interface SnapshotResult {
  name: string;
  id: string;
  parent: string | null;
  sessionId: string | null;
  lines: number;
  bytes: number;
  /** Bytes of log the store did not hold before this snapshot. */
  newBytes: number;
  /** Bytes of log modelled for its facts: all of it, or what its parent's facts did not cover. */
  modelledBytes: number;
  /** Those bytes were modelled in a worker thread (see FACTS_WORKER_BYTES). */
  modelledInWorker: boolean;
  pages: number;
  newPages: number;
  growth: SnapshotMeta['growth'];
  /** The graph stored beside the log; null for a log over the graph size, or one whose graph could not be built (a warning says why). */
  graph: { nodes: number; edges: number } | null;
  warnings: string[];
  meta: SnapshotMeta;
}

/** The session id a log belongs to: its file name when that is a uuid, else the first id inside. */
export function sessionIdOf(path: string, data: Buffer): string | undefined {
  const file = basename(path, '.jsonl');
  if (isUuid(file)) return file;
  const head = data.subarray(0, Math.min(data.length, 256 * 1024));
  for (const raw of splitRawLines(head).slice(0, 50)) {
    const id = parseLine(raw.bytes, raw.index).entries.find((e) => e.sessionId && !e.isSidechain)?.sessionId;
    if (id) return id;
  }
  return undefined;
}

/** How many of the parent's pages `data` begins with, in order: all of them when the log only grew since. */
export function sharedPages(data: Buffer, parentPages: { id: string; size: number }[]): number {
  let offset = 0;
  for (let i = 0; i < parentPages.length; i++) {
    const page = parentPages[i];
    if (offset + page.size > data.length) return i;
    if (gitBlobId(data.subarray(offset, offset + page.size)) !== page.id) return i;
    offset += page.size;
  }
  return parentPages.length;
}

/** True when `data` begins with exactly the parent's pages (the log only grew since). */
export function grewFrom(data: Buffer, parentPages: { id: string; size: number }[]): boolean {
  return sharedPages(data, parentPages) === parentPages.length;
}

/** `<first 8 chars of the session id>-<n>`, the first n free. */
export function defaultName(sessionId: string | undefined, path: string, taken: Set<string>): string {
  let stem = (sessionId ?? basename(path, '.jsonl')).slice(0, 8).replace(/[^A-Za-z0-9_-]/g, '-');
  if (nameProblem(stem)) stem = 'snapshot';
  for (let n = 1; ; n++) if (!taken.has(`${stem}-${n}`)) return `${stem}-${n}`;
}

interface ModelledLog {
  facts: SessionFactsSummary;
  graph?: GraphSideFile;
  history?: SnapshotMeta['history'];
  /** Bytes of the log modelled for these facts (what the parent did not know). */
  modelledBytes: number;
}

/** Where the last compaction boundary line of a log starts, or 0. */
function lastBoundaryIn(data: Buffer): number {
  for (let at = data.lastIndexOf('"compact_boundary"'); at >= 0; at = at > 0 ? data.lastIndexOf('"compact_boundary"', at - 1) : -1) {
    const start = data.lastIndexOf(0x0a, at) + 1;
    let end = data.indexOf(0x0a, at);
    if (end < 0) end = data.length;
    const entry = parseLine(data.subarray(start, end), 0).entries[0];
    if (entry?.type === 'system' && entry.subtype === 'compact_boundary') return start;
  }
  return 0;
}

/** What the parent already knows of this log: the facts of a first part of it that is the same. */
function knownPart(parent: ParentState | undefined, appended: boolean, pages: Page[]): { bytes: number; facts: SessionFactsSummary } | undefined {
  if (!parent) return undefined;
  if (appended) return { bytes: parent.meta.facts.bytes, facts: parent.meta.facts };
  const history = parent.meta.history;
  if (!history || history.pages > pages.length || history.pages > parent.pages.length) return undefined;
  for (let i = 0; i < history.pages; i++) if (pages[i].id !== parent.pages[i].id) return undefined;
  return history.pages > 0 && pages[history.pages - 1].offset + pages[history.pages - 1].bytes === history.bytes ? history : undefined;
}

/** The log modelled whole, for its facts and its graph (a log up to the graph size). */
async function modelWithGraph(path: string, data: Buffer, warnings: string[]): Promise<ModelledLog> {
  // The graph's modules are loaded only for a log that gets one.
  const { graphSideFile } = await import('./stored-graph.js');
  const session = sessionOfBuffer(path, data);
  return { facts: storedFacts(factsOf(session)), graph: graphSideFile(session, warnings), modelledBytes: data.length };
}

/**
 * What a log without a graph has modelled: only what the parent does not know. After what it
 * knows (the lines it had, when the log only grew; or the history before its last boundary, when
 * the log was trimmed in place since), up to this log's last boundary (kept as this snapshot's
 * history), and after it: each part's facts are read from the records, not the resume model.
 */
interface FactsPlan {
  known?: { bytes: number; facts: SessionFactsSummary };
  /** [start, end) byte ranges modelled apart: one, or the new history and what follows it. */
  parts: [number, number][];
  historyPages: number;
  historyBytes: number;
  /** Where the log's last compaction boundary line starts (0: none). */
  boundary: number;
}

function factsPlan(data: Buffer, known: FactsPlan['known'], pages: PagePlace[]): FactsPlan {
  const from = known?.bytes ?? 0;
  // The history ends with the last page that ends at or before the last boundary.
  const boundary = lastBoundaryIn(data);
  let historyPages = 0;
  while (historyPages < pages.length && pages[historyPages].offset + pages[historyPages].bytes <= boundary) historyPages++;
  const historyBytes = historyPages > 0 ? pages[historyPages - 1].offset + pages[historyPages - 1].bytes : 0;
  const parts: [number, number][] = historyBytes > from ? [[from, historyBytes], ...(historyBytes < data.length ? [[historyBytes, data.length] as [number, number]] : [])] : [[from, data.length]];
  return { known, parts, historyPages, historyBytes, boundary };
}

/** The facts of the log from those of the plan's parts (in the plan's order). */
function modelledFrom(plan: FactsPlan, partFacts: SessionFactsSummary[], dataLength: number, parent: ParentState | undefined, appended: boolean): ModelledLog {
  const { known, historyPages, historyBytes } = plan;
  const from = known?.bytes ?? 0;
  const join = (before: SessionFactsSummary | undefined, part: SessionFactsSummary) => (before ? appendFacts(before, part) : part);
  if (historyBytes > from) {
    const history = storedFacts(join(known?.facts, partFacts[0]));
    const facts = historyBytes < dataLength ? appendFacts(history, partFacts[1]) : history;
    return { facts: storedFacts(facts), history: { pages: historyPages, bytes: historyBytes, facts: history }, modelledBytes: dataLength - from };
  }
  const facts = storedFacts(join(known?.facts, partFacts[0]));
  // A log that only grew keeps its parent's history (its first pages are the parent's).
  const history = appended ? parent?.meta.history : known && 'pages' in known ? (known as SnapshotMeta['history']) : undefined;
  return { facts, history, modelledBytes: dataLength - from };
}

/**
 * Parts of a long log modelled at least this big are modelled in a worker thread, on another
 * core, while this one feeds git (and, in the PreCompact hook, trims the log): a 50 MB log's
 * facts take about 0.45 s, a worker's start about 0.05 s.
 */
export const FACTS_WORKER_BYTES = 8 * 1024 * 1024;

const FACTS_WORKER = new URL('./facts-worker.js', import.meta.url);

/**
 * The facts of each part, in order, modelled in a worker thread; undefined when the parts are
 * too small for one, the log's memory cannot be shared with it, or the worker failed (no memory
 * for its heap, a thread limit): the caller models them in this thread.
 */
async function factsInWorker(
  data: Buffer,
  parts: [number, number][],
  workerBytes: number,
  started?: StartedWorker,
  chain?: { bytes: number; give: (chain: HistoryChain | undefined) => void },
): Promise<SessionFactsSummary[] | undefined> {
  const bytes = parts.reduce((n, [start, end]) => n + end - start, 0);
  if (bytes < workerBytes || !(data.buffer instanceof SharedArrayBuffer) || data.byteOffset !== 0) {
    chain?.give(undefined);
    return undefined;
  }
  const job: FactsJob = { data: data.buffer, length: data.length, parts };
  if (!started) return workerAnswer<SessionFactsSummary[]>(FACTS_WORKER, job);
  if (!chain) return started.ask(job);
  // The job goes first, so the worker reads while this thread digests the bytes the chain stands
  // for (the trim takes the chain only for the bytes it copies: test/trim/history-chain.test.ts).
  // The worker's note (the lines as JSON text) comes on a later turn, after the digest is made.
  let sha256 = '';
  const answer = started.ask({ ...job, chainBytes: chain.bytes }, (lines) =>
    chain.give(typeof lines === 'string' ? historyChainFromText(`{"format":1,"cmv":${JSON.stringify(cmvVersion())},"bytes":${chain.bytes},"sha256":"${sha256}","lines":${lines}}`) : undefined),
  );
  sha256 = createHash('sha256').update(data.subarray(0, chain.bytes)).digest('hex');
  return answer;
}

type StartedWorker = NonNullable<ReturnType<typeof workerForLater<SessionFactsSummary[]>>>;

/** The log's bytes, in memory a worker thread can share when it is this big. */
async function readSessionLog(path: string, sharedFrom: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const size = (await handle.stat()).size;
    if (size < sharedFrom) return await handle.readFile();
    // The log as it is now: what is appended while it is read waits for the next snapshot.
    const data = Buffer.from(new SharedArrayBuffer(size));
    let at = 0;
    while (at < size) {
      const { bytesRead } = await handle.read(data, at, size - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return at === size ? data : Buffer.from(data.subarray(0, at));
  } finally {
    await handle.close();
  }
}

interface ParentState {
  id: string;
  meta: SnapshotMeta;
  pages: { id: string; size: number }[];
}

async function parentState(store: Store, id: string): Promise<ParentState> {
  const [files, objects] = await Promise.all([listTree(store.git, id), readObjects(store.git, [`${id}:meta.json`])]);
  const pages = files.filter((f) => f.path.startsWith('log/')).sort((a, b) => (a.path < b.path ? -1 : 1));
  return { id, meta: parseMeta(objects.get(`${id}:meta.json`)), pages };
}

export async function takeSnapshot(store: Store, sessionArg: string, options: SnapshotOptions = {}): Promise<SnapshotResult> {
  const path = resolve(sessionArg);
  if (options.name !== undefined) checkName(options.name);
  for (const tag of options.tags ?? []) checkName(tag);
  const now = options.now ?? new Date();
  const warnings: string[] = [];
  let chainHanded = false;
  const handChain = options.handChain
    ? (chain: HistoryChain | undefined) => {
        if (chainHanded) return;
        chainHanded = true;
        options.handChain!(chain);
      }
    : undefined;
  try {
    return await snapshotUnderLock();
  } finally {
    handChain?.(undefined);
  }

  async function snapshotUnderLock(): Promise<SnapshotResult> {
    await requireRegularFile(path); // a FIFO or device is refused before the lock is taken
    return withStoreLock(store, async () => {
      // Read under the lock: concurrent snapshots of a growing log then see it grow in lock order,
      // and each links to the one before (an append), never to a later, longer one.
      let data: Buffer;
      // A log named by its session id (as Claude Code names them) has its lineage's refs read while
      // it is read; a first snapshot of a long one has its worker's modules loaded meanwhile too.
      const named = basename(path, '.jsonl');
      const earlyRef = isUuid(named) ? sessionRef(named) : undefined;
      const early = earlyRef ? { ref: earlyRef, refs: namesAnd(store, earlyRef) } : undefined;
      early?.refs.catch(() => undefined); // awaited below
      let worker: StartedWorker | undefined;
      try {
        try {
          const info = await requireRegularFile(path);
          if (now.getTime() - info.mtimeMs < ACTIVE_MS) {
            warnings.push(`the session was written ${Math.max(0, Math.round((now.getTime() - info.mtimeMs) / 1000))}s ago and may be active: the snapshot holds the log as it is now`);
          }
          const workerBytes = options.factsWorkerBytes ?? FACTS_WORKER_BYTES;
          if (early && info.size > (options.graphMaxBytes ?? GRAPH_MAX_BYTES) && info.size >= workerBytes) {
            worker = workerForLater<SessionFactsSummary[]>(FACTS_WORKER);
            // A lineage with snapshots already: only what they lack is modelled, most often too little for a worker.
            void early.refs.then(
              ({ id }) => id && worker?.cancel(),
              () => worker?.cancel(),
            );
          }
          data = await readSessionLog(path, Math.max((options.graphMaxBytes ?? GRAPH_MAX_BYTES) + 1, workerBytes));
        } catch (error) {
          throw error instanceof CmvError ? error : fromSystemError(error, path);
        }
        options.onRead?.();
        return await stored(data, worker, early);
      } finally {
        worker?.cancel();
      }
    });
  }

  /** The snapshot of `data`, the log as read; `early`: the refs of the lineage its file name gives, read meanwhile. */
  async function stored(data: Buffer, started: StartedWorker | undefined, early: { ref: string; refs: ReturnType<typeof namesAnd> } | undefined): Promise<SnapshotResult> {
    const sessionId = sessionIdOf(path, data);
    const lineageRef = sessionId ? sessionRef(sessionId) : undefined;
    const { names, id: parentId } = early && lineageRef === early.ref ? await early.refs : lineageRef ? await namesAnd(store, lineageRef) : { names: await listNames(store), id: undefined };
    if (parentId) started = undefined;
    // No worker reads the history (a snapshot with a parent models what is new): said at once, so
    // the trim waiting on it reads the history itself.
    if (!started) handChain?.(undefined);
    const taken = new Set(names.map((n) => n.name));
    if (options.name !== undefined && taken.has(options.name)) throw nameTaken(options.name);
    const parent = parentId ? await parentState(store, parentId) : undefined;
    const shared = parent ? sharedPages(data, parent.pages) : 0;
    const appended = !!parent && parent.meta.facts.terminated && shared === parent.pages.length;
    // A log rewritten since (trimmed in place, its history copied as it was) keeps the pages it
    // still begins with: only what follows them is cut and hashed again. (Its parent's last page,
    // which may end mid-line, is cut again unless the log only grew.)
    const kept = parent ? parent.pages.slice(0, appended || shared < parent.pages.length ? shared : shared - 1) : [];
    const long = data.length > (options.graphMaxBytes ?? GRAPH_MAX_BYTES);
    // A long part is modelled in a worker (the history's chain handed on when it is read), while
    // git is fed the pages, then compresses them.
    const modelInWorker = (plan: FactsPlan) => {
      const chain = handChain && plan.boundary > 0 && plan.parts[0][0] === 0 ? { bytes: handedPartEnd(data, plan.boundary), give: handChain } : undefined;
      if (!chain) handChain?.(undefined);
      return { plan, facts: factsInWorker(data, plan.parts, options.factsWorkerBytes ?? FACTS_WORKER_BYTES, started, chain) };
    };
    // A long log's first snapshot: its worker, started already, gets its job (whose parts end
    // where pages do) before the pages are hashed for their ids, so the history's chain it hands
    // the hook's trim comes that much sooner.
    const places = long && !parent && started ? pagePlaces(data, options.pageRule) : undefined;
    const asked = places && modelInWorker(factsPlan(data, undefined, places));
    const pages: Page[] = places
      ? pagesAt(data, places)
      : paginateAppended(
          data,
          kept.map((p) => ({ id: p.id, bytes: p.size })),
          options.pageRule,
        );
    let write: PagesWrite;
    let modelled: ModelledLog;
    let modelledInWorker = false;
    if (!long) {
      write = await beginPages(store, data, pages);
      // Modelled while git compresses the pages.
      modelled = await modelWithGraph(path, data, warnings);
    } else {
      const { plan, facts: inWorker } = asked ?? modelInWorker(factsPlan(data, knownPart(parent, appended, pages), pages));
      write = await beginPages(store, data, pages);
      const partFacts = await inWorker;
      modelledInWorker = partFacts !== undefined;
      // Parts too small for a worker are modelled here, while git compresses the pages.
      modelled = modelledFrom(plan, partFacts ?? factsOfParts(data, plan.parts), data.length, parent, appended);
    }
    const { facts, graph, history, modelledBytes } = modelled;
    const project = await readProjectState(facts.cwd);
    const name = options.name ?? defaultName(sessionId, path, taken);
    const meta: SnapshotMeta = {
      format: 1,
      kind: 'snapshot',
      name,
      message: options.message,
      tags: options.tags ?? [],
      createdAt: now.toISOString(),
      cmvVersion: cmvVersion(),
      pageFormat: PAGE_FORMAT,
      source: { sessionId, path, cwd: facts.cwd },
      facts,
      project,
      growth: !parent ? 'first' : appended ? 'append' : 'rewrite',
      ...(history ? { history } : {}),
    };
    // The commit's objects are written while the pages are still being compressed (a long log's
    // pack ends the snapshot): no ref names them until both are on disk, and a failed pack leaves
    // them unreachable, for `cmv gc`.
    // Both are waited for, whichever fails: nothing is left writing once the store's lock is let go.
    const [committed, paged] = await Promise.allSettled([
      writeCommit(
        store,
        pages.map((p) => p.id),
        meta,
        parent ? [parent.id] : [],
        graph ? [graph] : [],
        write.presentTrees,
      ),
      write.done(),
    ]);
    if (paged.status === 'rejected') throw paged.reason;
    if (committed.status === 'rejected') throw committed.reason;
    const { commit } = committed.value;
    const updates: RefUpdate[] = [{ ref: refOf('snapshot', name), id: commit, old: ZERO_ID }];
    if (lineageRef) updates.push({ ref: lineageRef, id: commit, old: parentId ?? ZERO_ID });
    await updateRefs(store, updates, `cmv snapshot ${name}`);
    await maintain(store);
    return {
      name,
      id: commit,
      parent: parent?.id ?? null,
      sessionId: sessionId ?? null,
      lines: facts.lines,
      bytes: data.length,
      newBytes: write.newBytes,
      modelledBytes,
      modelledInWorker,
      pages: pages.length,
      newPages: write.newPages,
      growth: meta.growth,
      graph: graph ? { nodes: graph.graph.nodes.length, edges: graph.graph.edges.length } : null,
      warnings,
      meta,
    };
  }
}
